/**
 * Step 4's first check and what it hands over: the body as a JSON object the stores can hold, and the raw
 * input of the request (body, path, query, headers, `{base_url}`) an operation's decoder reads.
 */
import { Effect } from "effect"
import { InvalidJson, InvalidRequest } from "../errors.ts"
import { unstorableFields } from "../shared/text.ts"
import type { Params } from "./handler.ts"
import type { AnyOperation, RawInput } from "./operation.ts"
import type { ApiRequest, Json } from "./request.ts"

/**
 * The body is a JSON object (an empty body reads as `{}`) whose strings the stores can hold (no NUL, no
 * unpaired surrogate: `400 invalid_request` naming each such field).
 */
export const requireJson = (req: ApiRequest): Effect.Effect<Json, InvalidJson | InvalidRequest> => {
  const body = req.json()
  if (body === undefined) return Effect.fail(new InvalidJson({}))
  const unstorable = unstorableFields(body)
  return unstorable === undefined ? Effect.succeed(body) : Effect.fail(
    new InvalidRequest({
      message: "Some fields hold characters that cannot be stored.",
      fields: unstorable,
      errors: Object.fromEntries(Object.keys(unstorable).map((name) => [name, "invalid"])),
    }),
  )
}

/** The raw input of one request; the query string is parsed only when an operation reads it. */
class Raw implements RawInput {
  constructor(
    readonly body: Json | undefined,
    readonly params: Params,
    private readonly req: ApiRequest,
    private readonly publicUrl: string | undefined,
    private readonly given?: URLSearchParams,
  ) {}
  get query(): URLSearchParams {
    return this.given ?? this.req.query
  }
  get idempotencyKey(): string | undefined {
    return this.req.header("idempotency-key")
  }
  get baseUrl(): string {
    return this.publicUrl ?? `http://${this.req.header("host") ?? "localhost"}`
  }
  header(name: string): string | undefined {
    return this.req.header(name)
  }
  get text(): string | undefined {
    return this.req.body
  }
}

/** Raw inputs under `{base_url}` `publicUrl` (unset: `http://` and the request's Host). */
export const rawInputs = (publicUrl: string | undefined) => ({
  /** A request's raw input from its body and path (and a query other than its own: a call by name's). */
  of: (body: Json | undefined, params: Params, req: ApiRequest, query?: URLSearchParams): RawInput =>
    new Raw(body, params, req, publicUrl, query),
  /** The body (not read at all for an operation that takes none), then `then` with the raw input. */
  withRaw: <A, E, R>(
    op: AnyOperation,
    req: ApiRequest,
    params: Params,
    then: (raw: RawInput) => Effect.Effect<A, E, R>,
  ): Effect.Effect<A, E | InvalidJson | InvalidRequest, R> =>
    op.body === undefined
      ? then(new Raw(undefined, params, req, publicUrl))
      : Effect.flatMap(requireJson(req), (body) => then(new Raw(body, params, req, publicUrl))),
})
