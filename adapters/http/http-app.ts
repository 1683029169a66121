/**
 * The platform as an Effect HTTP app (`HttpApp.Default` of @effect/platform), for a host app that serves
 * with @effect/platform (its Node, Bun or web server, or its own HttpRouter): the same dispatcher, the
 * same answers, the same body limit as every other host.
 */
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { randomUUID } from "node:crypto"
import { Effect, Either, Option } from "effect"
import { Http } from "../../core/limits.ts"
import { carriesBody, declaredTooLarge } from "./body.ts"
import type { Dispatch, PlainRequest, PlainResponse } from "./dispatcher.ts"
import { headerBytes } from "./edge.ts"
import { bodyTooLarge } from "./respond.ts"

const toResponse = (res: PlainResponse): HttpServerResponse.HttpServerResponse => {
  const { "content-type": contentType, ...headers } = res.headers
  return res.body.length === 0 && (contentType === undefined || res.body instanceof Uint8Array)
    ? HttpServerResponse.empty({ status: res.status, headers: res.body instanceof Uint8Array ? res.headers : headers })
    : res.body instanceof Uint8Array
    ? HttpServerResponse.uint8Array(res.body, { status: res.status, headers, contentType })
    : HttpServerResponse.text(res.body, { status: res.status, headers, contentType })
}

/** The body's bytes, or undefined past `Http.maxBodyBytes` (a declared length over it is not read at all). */
const readBody = (request: HttpServerRequest.HttpServerRequest) => {
  if (!carriesBody(request.method)) return Effect.succeed<Uint8Array | string | undefined>("")
  if (declaredTooLarge(request.headers["content-length"])) return Effect.succeed(undefined)
  return HttpIncomingMessage.withMaxBodySize(request.arrayBuffer, Option.some(Http.maxBodyBytes)).pipe(
    Effect.either,
    // The size is checked again: not every server behind HttpServerRequest enforces the maximum.
    Effect.map((read) =>
      Either.isRight(read) && read.right.byteLength <= Http.maxBodyBytes ? new Uint8Array(read.right) : undefined
    ),
  )
}

/** An @effect/platform request as the dispatcher reads it: a class, its `ip` getter on the prototype (node.ts). */
class AppRequest implements PlainRequest {
  readonly method: string
  readonly url: string
  readonly headerBytes: number
  /** A function of its own (the dispatcher holds it apart from the request). */
  readonly headers: (name: string) => string | undefined
  constructor(private readonly request: HttpServerRequest.HttpServerRequest, readonly body: Uint8Array | string) {
    this.method = request.method
    this.url = request.url
    this.headers = (name) => request.headers[name]
    this.headerBytes = headerBytes(Object.entries(request.headers))
  }
  /** Read only when a key has an IP allowlist. */
  get ip(): string | undefined {
    return Option.getOrUndefined(this.request.remoteAddress)
  }
}

export const makeHttpApp = (dispatch: Dispatch): Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  never,
  HttpServerRequest.HttpServerRequest
> =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* readBody(request)
    if (body === undefined) return toResponse(bodyTooLarge(randomUUID()))
    const answered = dispatch(new AppRequest(request, body))
    return toResponse(answered instanceof Promise ? yield* Effect.promise(() => answered) : answered)
  })
