/**
 * Whether a failure is the store being out of reach (PostgreSQL stopped, restarting, or the network to it
 * down) rather than a fault of the request: such a request answers `503 store_unavailable` with
 * `Retry-After`, and the jobs back off (adapters/jobs.ts), instead of a `500` and a log line each.
 */
import { Cause, Chunk } from "effect"
import { StoreUnavailable } from "../../core/errors.ts"

/** How long a caller is told to wait (`Retry-After`, seconds). */
export const storeRetryAfterSeconds = 5

/** Socket errors of a connection refused, reset or timed out, and the DNS ones of a host that went away. */
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
])

/** SQLSTATE: class 08 (connection exception); 57P01-57P03 (the server shutting down or starting). */
const sqlState = /^(08...|57P0[123])$/

/** What `pg` says when a connection ends under it, and the pipelined client (pg-client.ts) when it is closed. */
const messages =
  /Connection terminated|connection (?:is )?(?:closed|ended)|Client has encountered a connection error|timeout exceeded when trying to connect|The database connections are closed|the database system is (?:starting up|shutting down)/i

const unreachableError = (e: unknown, depth = 0): boolean => {
  if (typeof e !== "object" || e === null || depth > 6) return false
  const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown }
  if (typeof code === "string" && (socketCodes.has(code) || sqlState.test(code))) return true
  if (typeof message === "string" && messages.test(message)) return true
  // AggregateError (a host with several addresses) and causes wrapped by @effect/sql's SqlError.
  const errors = (e as { errors?: unknown }).errors
  if (Array.isArray(errors) && errors.some((x) => unreachableError(x, depth + 1))) return true
  return cause !== undefined && unreachableError(cause, depth + 1)
}

/** Whether every failure and defect of `cause` is the store out of reach (and there is at least one). */
export const storeUnreachable = (cause: Cause.Cause<unknown>): boolean => {
  const all = [...Chunk.toReadonlyArray(Cause.failures(cause)), ...Chunk.toReadonlyArray(Cause.defects(cause))]
  return all.length > 0 && all.every((e) => unreachableError(e))
}

export const storeUnavailable = (): StoreUnavailable =>
  new StoreUnavailable({
    message: "The platform's store cannot be reached; the request may not have run. Retry after Retry-After seconds.",
    retry_after_seconds: storeRetryAfterSeconds,
  })
