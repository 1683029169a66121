/**
 * A typed client for TypeScript users, derived from the operation declarations: one method per operation,
 * named as its `operationId` (`client["verify.start"]({ to })`), taking the body's fields and the path's
 * parameters, answering the output as the declaration types it, and throwing `ApiErrorResponse` with the
 * catalogue's `error` code otherwise.
 */
import type { Schema } from "effect"
import type { AnyOperation, PathParams } from "../../core/pipeline/operation.ts"

/** A non-2xx answer: its status, its `error` code and the whole body, and the request id to quote. */
export class ApiErrorResponse extends Error {
  constructor(
    readonly status: number,
    readonly body: { readonly error: string; readonly [field: string]: unknown },
    readonly requestId: string | null,
  ) {
    super(`${status} ${body.error}${requestId ? ` (request ${requestId})` : ""}`)
    this.name = "ApiErrorResponse"
  }
  get code(): string {
    return this.body.error
  }
}

type BodyOf<Op extends AnyOperation> = Op["body"] extends Schema.Schema<any, infer I, any> ? I : unknown

/** What a call takes: the body's fields and the path's parameters, in one object. */
export type RequestOf<Op extends AnyOperation> = BodyOf<Op> & PathParams<Op["path"]>

export type ResponseOf<Op extends AnyOperation> = Schema.Schema.Type<Op["output"]>

export interface CallOptions {
  /** `Idempotency-Key` for a write. */
  readonly idempotencyKey?: string
  /** Partner keys on reads: the client application (`?application=`). */
  readonly application?: string
}

export type Client<Ops extends ReadonlyArray<AnyOperation>> = {
  readonly [Op in Ops[number] as Op["name"]]: (
    request: RequestOf<Op>,
    options?: CallOptions,
  ) => Promise<ResponseOf<Op>>
}

export interface ClientOptions {
  /** `https://api.example.com` (a path prefix is kept: `https://shop.example/messaging`). */
  readonly baseUrl: string
  /** The API key, sent as `Authorization: Bearer`. */
  readonly key: string
  /** A fetch of one's own (tests, a proxy agent); the global one by default. */
  readonly fetch?: (request: Request) => Promise<Response>
}

export const makeClient = <const Ops extends ReadonlyArray<AnyOperation>>(
  operations: Ops,
  options: ClientOptions,
): Client<Ops> => {
  const send = options.fetch ?? ((request: Request) => fetch(request))
  const base = options.baseUrl.replace(/\/+$/, "")
  const client: Record<string, (request: Record<string, unknown>, call?: CallOptions) => Promise<unknown>> = {}
  for (const op of operations) {
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
    client[op.name] = async (request = {}, call = {}) => {
      const body: Record<string, unknown> = { ...request }
      let path: string = op.path
      for (const name of names) {
        path = path.replace(`{${name}}`, encodeURIComponent(String(request[name])))
        delete body[name]
      }
      const query = call.application === undefined ? "" : `?application=${encodeURIComponent(call.application)}`
      const headers: Record<string, string> = { authorization: `Bearer ${options.key}` }
      if (op.body !== undefined) headers["content-type"] = "application/json"
      if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey
      const response = await send(
        new Request(`${base}${path}${query}`, {
          method: op.method,
          headers,
          body: op.body === undefined ? undefined : JSON.stringify(body),
        }),
      )
      const text = await response.text()
      const parsed = text === "" ? {} : JSON.parse(text)
      if (response.status >= 200 && response.status < 300) return parsed
      throw new ApiErrorResponse(response.status, parsed, response.headers.get("x-request-id"))
    }
  }
  return client as unknown as Client<Ops>
}
