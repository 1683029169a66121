/**
 * One log line per request, and a defect's cause once, through the platform runtime's own loggers (Effect's
 * Logger: `Logger.json` by default, or the host's; adapters/logging.ts). The line names the request, never what
 * it carries: the request id, the method, the route's template (`/v1/verify/:id`, never the raw path), the
 * status, the error code, the duration, the Host, the credential's prefix (`svc_live_`) and, once recognised, its
 * id. No header value other than Host, no query, path parameter or body is read here.
 */
import { Cause, FiberId, FiberRef, FiberRefs, HashMap, List, type Logger, LogLevel, type Runtime } from "effect"
import { Http } from "../../core/limits.ts"
import { presentedCredential } from "../../core/pipeline/request.ts"
import { credentialKind, keyPrefix } from "../../core/shared/key-mode.ts"

/** What a request's line says. */
export interface RequestFacts {
  readonly requestId: string
  readonly method: string
  /** The route's template; undefined when no route matched (404, 405, OPTIONS). */
  readonly route: string | undefined
  readonly status: number
  /** The answer's `error` code, if any. */
  readonly error: string | undefined
  readonly startedAt: number
  readonly headers: (name: string) => string | undefined
  /** The key's or account token's id, once the checks recognised it. */
  readonly credentialId: string | undefined
}

export interface RequestLog {
  /** Whether request lines are written at all (the level lets `info` through): else nothing is measured. */
  readonly on: boolean
  readonly request: (facts: RequestFacts) => void
  /** An unexpected 500: its cause, with the request id, at `error`. */
  readonly defect: (requestId: string, cause: Cause.Cause<unknown>) => void
}

/**
 * The caller's `X-Request-Id` when it is one an operator can use and nobody can hide a secret in: 16 to 128
 * letters, digits, `-`, `.` and `:` (a UUID, a ULID, a proxy's hex id). No `_` (every credential has one), `@`,
 * `+` or space; 16 at least, longer than any code or phone number. Else undefined (the platform makes one).
 */
export const callerRequestId = (given: string | undefined): string | undefined =>
  given !== undefined && given.length >= Http.requestIdMinChars && given.length <= Http.requestIdMaxChars &&
    requestIdChars.test(given)
    ? given
    : undefined
const requestIdChars = /^[A-Za-z0-9.:-]+$/

/** The Host header when it is a host name or address with an optional port; else undefined. */
const hostOf = (host: string | undefined): string | undefined =>
  host !== undefined && host.length <= 261 && hostChars.test(host) ? host : undefined
const hostChars = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** The presented credential's kind as its prefix (`svc_live_`, `svc_acct_`), never a character of its body. */
const prefixOf = (headers: (name: string) => string | undefined): string | undefined => {
  const presented = presentedCredential({ header: headers })
  if (presented === undefined) return undefined
  const kind = credentialKind(presented)
  if (kind._tag === "None") return undefined
  return keyPrefix(kind.value.kind === "account_token" ? "account_token" : kind.value.mode)
}

const noSpans = List.empty<never>()

/** The request log of a runtime: its loggers, its annotations and its minimum level, read once. */
export const requestLogOf = (runtime: Runtime.Runtime<never>): RequestLog => {
  const refs = runtime.fiberRefs
  const loggers = FiberRefs.getOrDefault(refs, FiberRef.currentLoggers)
  const minimum = FiberRefs.getOrDefault(refs, FiberRef.currentMinimumLogLevel)
  const annotations = FiberRefs.getOrDefault(refs, FiberRef.currentLogAnnotations)
  const write = (
    logLevel: LogLevel.LogLevel,
    message: string,
    cause: Cause.Cause<unknown>,
    fields: HashMap.HashMap<string, unknown>,
  ) => {
    const options: Logger.Logger.Options<unknown> = {
      fiberId: FiberId.none,
      logLevel,
      message,
      cause,
      context: refs,
      spans: noSpans,
      annotations: fields,
      date: new Date(),
    }
    for (const logger of loggers) logger.log(options)
  }
  const on = LogLevel.greaterThanEqual(LogLevel.Info, minimum)
  const defectOn = LogLevel.greaterThanEqual(LogLevel.Error, minimum)
  return {
    on,
    request: (facts) => {
      const durationMs = Math.round((performance.now() - facts.startedAt) * 1000) / 1000
      // One transient copy of the runtime's annotations, filled in place (not a new map a field).
      const fields = HashMap.mutate(annotations, (m) => {
        HashMap.set(m, "request_id", facts.requestId as unknown)
        HashMap.set(m, "method", facts.method)
        HashMap.set(m, "route", facts.route ?? null)
        HashMap.set(m, "status", facts.status)
        HashMap.set(m, "error", facts.error ?? null)
        HashMap.set(m, "duration_ms", durationMs)
        const host = hostOf(facts.headers("host"))
        if (host !== undefined) HashMap.set(m, "host", host)
        const prefix = prefixOf(facts.headers)
        if (prefix !== undefined) HashMap.set(m, "key_prefix", prefix)
        if (facts.credentialId !== undefined) HashMap.set(m, "credential_id", facts.credentialId)
      })
      write(LogLevel.Info, "request", Cause.empty, fields)
    },
    defect: (requestId, cause) => {
      if (!defectOn) return
      write(LogLevel.Error, "internal_error", cause, HashMap.set(annotations, "request_id", requestId as unknown))
    },
  }
}
