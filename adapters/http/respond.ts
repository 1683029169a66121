/** Rendering answers and catalogue errors into plain responses. */
import { Cause, Exit, Option } from "effect"
import {
  type ApiError,
  errorBody,
  errorHeaders,
  InternalError,
  InvalidRequest,
  isApiError,
  statusOf,
} from "../../core/errors.ts"
import { Http } from "../../core/limits.ts"
import type { ApiAnswer } from "../../core/pipeline/request.ts"
import { storeUnavailable, storeUnreachable } from "../sql/unreachable.ts"
import { echo } from "../../core/shared/text.ts"

export interface PlainResponse {
  readonly status: number
  readonly headers: Record<string, string>
  /** JSON text, or bytes as they are (a logo), their type in `content-type`. */
  readonly body: string | Uint8Array
  /** A catalogue error's code, for the request's log line (hosts write only the three fields above). */
  readonly error?: string
}

const json = (
  status: number,
  body: unknown,
  requestId: string,
  extra?: Record<string, string>,
  error?: string,
): PlainResponse => ({
  status,
  headers: extra === undefined
    ? { "content-type": "application/json", "x-request-id": requestId }
    : { "content-type": "application/json", "x-request-id": requestId, ...extra },
  body: JSON.stringify(body),
  error,
})

export const answer = (a: ApiAnswer, requestId: string): PlainResponse =>
  a.body instanceof Uint8Array
    // Bytes (a logo): written as they are, with the headers the use case gave (its `content-type` included).
    ? { status: a.status, headers: { "x-request-id": requestId, ...a.headers }, body: a.body }
    : json(a.status, a.body, requestId, a.headers)

/** `fields` or `errors` with every name and message at most `Http.maxEchoChars` long (DECISIONS 18). */
const echoed = (named: unknown): unknown => {
  if (typeof named !== "object" || named === null || Array.isArray(named)) return named
  const entries = Object.entries(named)
  return entries.every(([k, v]) =>
      k.length <= Http.maxEchoChars && (typeof v !== "string" || v.length <= Http.maxEchoChars)
    )
    ? named
    : Object.fromEntries(entries.map(([k, v]) => [echo(k), typeof v === "string" ? echo(v) : v]))
}

export const apiError = (e: ApiError, requestId: string, withMessage = false) => {
  const body = errorBody(e)
  if (withMessage && body.message === undefined) body.message = defaultMessage(e._tag)
  // Where a refusal names fields, their names and messages may quote the caller's text: every refusal's
  // `fields` and `errors` are bounded here, as they are rendered (DECISIONS 18); a message that quotes the caller
  // is bounded where it is built (`echo`, `fieldsRefused`).
  if (body.fields !== undefined) body.fields = echoed(body.fields)
  if (body.errors !== undefined) body.errors = echoed(body.errors)
  return json(statusOf(e), body, requestId, errorHeaders(e), e._tag)
}

/** The sentence of an error that carries none of its own (console and account-API answers always have one). */
const defaultMessages: Readonly<Record<string, string>> = {
  not_found: "No such resource.",
  unauthorized: "A valid token is required.",
  too_many_requests: "Too many requests for this token; wait for the time in Retry-After.",
  key_expired: "This token has expired.",
  invalid_json: "The body is not a JSON object.",
  invalid_request: "The request was refused; see `fields`.",
  internal_error: "Something went wrong on our side; quote the request id.",
  idempotency_in_progress: "A request with this Idempotency-Key is still running; retry in a moment.",
  idempotency_key_reused: "This Idempotency-Key was used for another request.",
  method_not_allowed: "This path does not take this method.",
  account_not_active: "The account is not active.",
}
const defaultMessage = (code: string) => defaultMessages[code] ?? code.replaceAll("_", " ")

/** A body over `Http.maxBodyBytes`, refused by every host before it is read whole. */
export const bodyTooLarge = (requestId: string) =>
  apiError(
    new InvalidRequest({ message: `The body is larger than ${Http.maxBodyBytes} bytes.` }),
    requestId,
  )

/** A body the connection failed to deliver whole (the client went away mid-body). */
export const bodyUnreadable = (requestId: string) =>
  apiError(new InvalidRequest({ message: "The body could not be read." }), requestId)

export const internalError = (requestId: string) => apiError(new InternalError({ request_id: requestId }), requestId)

/** Turns the exit of a handler into a response; anything not in the catalogue is a 500 that leaks nothing. */
export const fromExit = (
  exit: Exit.Exit<ApiAnswer, unknown>,
  requestId: string,
  onDefect: (requestId: string, cause: Cause.Cause<unknown>) => void,
  withMessage = false,
): PlainResponse => {
  if (Exit.isSuccess(exit)) return answer(exit.value, requestId)
  // Most failures are one expected error: read it without walking the cause.
  const failure = exit.cause._tag === "Fail" ? Option.some(exit.cause.error) : Cause.failureOption(exit.cause)
  if (Option.isSome(failure) && isApiError(failure.value)) return apiError(failure.value, requestId, withMessage)
  // The store out of reach is no defect of the request: 503 with Retry-After, no log line each.
  if (storeUnreachable(exit.cause)) return apiError(storeUnavailable(), requestId, withMessage)
  onDefect(requestId, exit.cause)
  return internalError(requestId)
}
