/**
 * The comparer: each way in's answer reduced to what must be the same everywhere (status, the JSON body
 * with per-instance values replaced by placeholders, the headers that carry meaning), the rules every answer
 * must keep (an `X-Request-Id` UUID, a catalogue error or a success, never a 5xx, never a dropped
 * connection), and the classes of differences and faults a request showed.
 */
import { errorStatuses } from "../../adapters/products.ts"

const HttpStatus = errorStatuses()

export const targetNames = ["node", "deno", "bun", "web", "express"] as const
export type TargetName = typeof targetNames[number]

/** One way in's answer to one request. */
export interface Answer {
  readonly status: number
  /** Lower-case names, values as received (repeated fields separate). */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
  /** Set when there was no whole answer: why. */
  readonly dropped?: string
  /** For a dropped answer: what arrived before. */
  readonly received?: string
}

/** Headers whose presence and value must agree (date, content-length, connection, keep-alive do not). */
export const comparedHeaders = [
  "content-type",
  "allow",
  "retry-after",
  "www-authenticate",
  "idempotent-replayed",
  "vary",
]
const isCompared = (name: string) => comparedHeaders.includes(name) || name.startsWith("access-control-")

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const UUID_ONLY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const CREDENTIAL = /svc_(?:live|test|partner_test|partner|acct)_[A-Za-z0-9_-]{20,}/g
const WHSEC = /whsec_[A-Za-z0-9+/=]+/g
const CODE = /(verification code is )\d+/g

/**
 * A string with every per-instance value replaced by a placeholder: ids (UUIDs), credentials, webhook
 * secrets, SMS codes. Timestamps stay as they are: every instance's simulated clock is set to the same
 * instant before the first request (targets.ts `setUp`) and never moves, so they must agree to the millisecond.
 */
export const normalizeText = (s: string): string =>
  s.replace(CREDENTIAL, "<credential>").replace(WHSEC, "<whsec>").replace(UUID, "<uuid>")
    .replace(CODE, "$1<code>")

const normalizeJson = (v: unknown): unknown => {
  if (typeof v === "string") return normalizeText(v)
  if (Array.isArray(v)) return v.map(normalizeJson)
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort()) out[normalizeText(k)] = normalizeJson((v as Record<string, unknown>)[k])
    return out
  }
  return v
}

export const headerValues = (a: Answer, name: string): Array<string> =>
  a.headers.filter(([n]) => n === name).map(([, v]) => v)

/** What must be the same on every way in. */
export interface View {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: unknown
}

export const parseBody = (a: Answer): { json: unknown } | { text: string } | undefined => {
  if (a.body === "") return undefined
  try {
    return { json: JSON.parse(a.body) }
  } catch {
    return { text: a.body }
  }
}

export const view = (a: Answer): View | { dropped: string } => {
  if (a.dropped !== undefined) return { dropped: a.dropped }
  const headers: Record<string, string> = {}
  for (const [n, v] of a.headers) {
    if (!isCompared(n)) continue
    headers[n] = headers[n] === undefined ? normalizeText(v) : `${headers[n]}, ${normalizeText(v)}`
  }
  const body = parseBody(a)
  return {
    status: a.status,
    headers: Object.fromEntries(Object.entries(headers).sort(([x], [y]) => (x < y ? -1 : 1))),
    body: body === undefined ? "" : "json" in body ? normalizeJson(body.json) : { text: normalizeText(body.text) },
  }
}

const errorCode = (a: Answer): string | undefined => {
  const b = parseBody(a)
  return b !== undefined && "json" in b && b.json !== null && typeof b.json === "object" &&
      typeof (b.json as { error?: unknown }).error === "string"
    ? (b.json as { error: string }).error
    : undefined
}

/** `404 not_found`, `431 (not JSON)`, `dropped (…)`: an answer in a few words. */
export const summary = (a: Answer): string => {
  if (a.dropped !== undefined) return `dropped (${a.dropped})`
  const code = errorCode(a)
  const b = parseBody(a)
  return `${a.status}${code !== undefined ? ` ${code}` : b !== undefined && "text" in b ? " (not JSON)" : ""}`
}

/** Only `HEAD` itself is bodiless on the wire (`head` is another method there, though the platform reads it as HEAD). */
const isHead = (method: string) => method === "HEAD"

/** An answer no code of ours wrote: no X-Request-Id and no JSON body (a server's own refusal). */
export const isBare = (a: Answer): boolean => {
  if (a.dropped !== undefined || headerValues(a, "x-request-id").length > 0) return false
  const body = parseBody(a)
  return body === undefined || !("json" in body)
}

/**
 * The longest text a refusal may hold in one string (a key or a value): 256 characters quoted from a refused
 * value (DECISIONS 18) inside a sentence of ours.
 */
export const maxRefusalString = 256 + 200

/** The longest string (key or value) in a JSON value, walked without recursion. */
const longestString = (v: unknown): number => {
  let longest = 0
  const pending: Array<unknown> = [v]
  while (pending.length > 0) {
    const x = pending.pop()
    if (typeof x === "string") longest = Math.max(longest, x.length)
    else if (Array.isArray(x)) pending.push(...x)
    else if (x !== null && typeof x === "object") {
      for (const [k, y] of Object.entries(x)) {
        longest = Math.max(longest, k.length)
        pending.push(y)
      }
    }
  }
  return longest
}

/** What a fixed case says every way in answers, broken: `expected 400 invalid_json, got 500 internal_error`. */
export const expectationFaults = (
  expected: { readonly status: number; readonly error: string; readonly maxBody: number } | undefined,
  a: Answer,
): Array<string> => {
  if (expected === undefined || a.dropped !== undefined) return []
  const out: Array<string> = []
  const got = summary(a)
  if (got !== `${expected.status} ${expected.error}`) {
    out.push(`expected ${expected.status} ${expected.error}, got ${got}`)
  }
  if (a.body.length > expected.maxBody) {
    out.push(`a refusal of ${a.body.length} characters (at most ${expected.maxBody})`)
  }
  return out
}

/**
 * The rules every answer keeps whatever the others say: a whole answer; one `X-Request-Id` that is a UUID;
 * no 5xx (but `502 send_failed`, the simulated network refusing `+966500000001`, is the catalogue's answer
 * for that number); a catalogue error (its status the catalogue's) or a success; no body on HEAD and 204; a
 * refusal quoting no more than 256 characters of a value (no string in it over `maxRefusalString`).
 */
export const faults = (a: Answer, method: string): Array<string> => {
  if (a.dropped !== undefined) return [`dropped connection (${a.dropped})`]
  const out: Array<string> = []
  const ids = headerValues(a, "x-request-id")
  const body = parseBody(a)
  const head = isHead(method)
  // A bare answer: one fault, whatever else it lacks.
  if (isBare(a)) return [`a bare ${a.status} (no x-request-id, ${body === undefined ? "no body" : "not JSON"})`]
  if (ids.length !== 1) out.push(ids.length === 0 ? "no x-request-id" : "several x-request-id")
  else if (!UUID_ONLY.test(ids[0])) out.push("x-request-id not a UUID")
  const code = errorCode(a)
  if (a.status >= 500 && !(a.status === 502 && code === "send_failed")) out.push(`5xx (${summary(a)})`)
  if (head || a.status === 204) {
    if (a.body !== "") out.push(`a body on a ${head ? "HEAD answer" : "204"}`)
    return out
  }
  // `head` is answered as HEAD is (no body) where a route serves it.
  if (body === undefined && /^head$/i.test(method)) return out
  if (body === undefined || !("json" in body)) {
    out.push(`not a catalogue answer (${a.status}, ${body === undefined ? "no body" : "not JSON"})`)
    return out
  }
  if (a.status < 200 || a.status >= 300) {
    if (code === undefined) out.push(`not a catalogue answer (${a.status} without an error code)`)
    else if (!Object.prototype.hasOwnProperty.call(HttpStatus, code)) out.push(`unknown error code ${code}`)
    else if ((HttpStatus as Record<string, number>)[code] !== a.status) {
      out.push(`${code} answered ${a.status}, the catalogue says ${(HttpStatus as Record<string, number>)[code]}`)
    }
  }
  if (!headerValues(a, "content-type").some((v) => /^application\/json\b/.test(v))) {
    out.push("content-type not application/json")
  }
  if (a.status >= 400 && longestString(body.json) > maxRefusalString) {
    out.push(`a refusal holding a string over ${maxRefusalString} characters (a refused value quoted whole)`)
  }
  return out
}

/** A stable text of a value (keys sorted). */
export const stable = (v: unknown): string => JSON.stringify(v)

export interface Verdict {
  /** The ways in grouped by the same view; the first group is the majority. */
  readonly groups: ReadonlyArray<ReadonlyArray<TargetName>>
  /** Difference classes (a minority's answer against the majority's), empty when all agree. */
  readonly differences: ReadonlyArray<string>
  /** Fault classes (`bun: 5xx (500 internal_error)`). */
  readonly faults: ReadonlyArray<string>
  readonly fiveXX: number
  readonly dropped: number
}

/**
 * An answer that refused the request before the platform's route looked at it, named by itself: a dropped
 * connection, a server's bare answer, the Node host's "could not be parsed". A class is then that refusal,
 * whatever the other ways in answered (one cause, one class).
 */
const refusal = (a: Answer): string | undefined => {
  if (a.dropped !== undefined) return "dropped"
  if (isBare(a)) return `a bare ${a.status}`
  const b = parseBody(a)
  if (
    a.status === 400 && b !== undefined && "json" in b &&
    (b.json as { message?: unknown })?.message === "The request could not be parsed."
  ) return "400 invalid_request (could not be parsed)"
  return undefined
}

/** How one way in's answer differs from the majority's, in a few words. */
const differenceOf = (a: Answer, m: Answer): string => {
  const sa = summary(a)
  const sm = summary(m)
  if (sa !== sm) return `${sa} instead of ${sm}`
  const va = view(a) as View
  const vm = view(m) as View
  if (va.status === vm.status && stable(va.body) !== stable(vm.body)) return `${sa} with another body`
  const names = new Set([...Object.keys(va.headers), ...Object.keys(vm.headers)])
  const differing = [...names].filter((n) => va.headers[n] !== vm.headers[n]).sort()
  return `${sa} with other ${differing.join(", ")}`
}

/** The difference classes of one request: one for each group of ways in that answered otherwise than the majority. */
const differenceClasses = (
  method: string,
  groups: ReadonlyArray<ReadonlyArray<TargetName>>,
  answers: Readonly<Record<TargetName, Answer>>,
): Array<string> => {
  if (groups.length < 2) return []
  const majority = groups[0].join("+")
  const m = answers[groups[0][0]]
  const refused = refusal(m)
  return groups.slice(1).map((g) => {
    const a = answers[g[0]]
    const who = g.join("+")
    const r = refusal(a)
    if (r !== undefined) return `${who}: ${r}`
    if (refused !== undefined) return `${who}: answered where ${majority}: ${refused}`
    if (isHead(method) && a.status === m.status && a.body !== "" && m.body === "") {
      return `${who}: a body on a HEAD answer`
    }
    return `${who}: ${differenceOf(a, m)} (${majority})`
  })
}

export const judge = (
  method: string,
  answers: Readonly<Record<TargetName, Answer>>,
  expected?: { readonly status: number; readonly error: string; readonly maxBody: number },
): Verdict => {
  const names = targetNames.filter((t) => answers[t] !== undefined)
  const byView = new Map<string, Array<TargetName>>()
  for (const t of names) {
    const k = stable(view(answers[t]))
    byView.set(k, [...(byView.get(k) ?? []), t])
  }
  // The largest group first; among equals, the one holding the earliest way in.
  const groups = [...byView.values()].sort((x, y) => y.length - x.length || names.indexOf(x[0]) - names.indexOf(y[0]))
  const differences = differenceClasses(method, groups, answers)
  const found: Array<string> = []
  let fiveXX = 0
  let dropped = 0
  for (const t of names) {
    const a = answers[t]
    if (a.dropped !== undefined) dropped++
    else if (a.status >= 500 && !(a.status === 502 && errorCode(a) === "send_failed")) fiveXX++
    for (const f of [...faults(a, method), ...expectationFaults(expected, a)]) found.push(`${t}: ${f}`)
  }
  // Faults shared by several ways in are one class.
  const merged = new Map<string, Array<string>>()
  for (const f of found) {
    const [t, ...rest] = f.split(": ")
    const k = rest.join(": ")
    merged.set(k, [...(merged.get(k) ?? []), t])
  }
  return {
    groups,
    differences,
    faults: [...merged.entries()].map(([k, ts]) => `${ts.join("+")}: ${k}`),
    fiveXX,
    dropped,
  }
}

/** An answer for a report: status line, compared headers and x-request-id, the body (cut). */
export const describeAnswer = (a: Answer, max = 600): string => {
  if (a.dropped !== undefined) return `dropped: ${a.dropped}${a.received ? ` after ${JSON.stringify(a.received)}` : ""}`
  const hs = a.headers.filter(([n]) => isCompared(n) || n === "x-request-id").map(([n, v]) => `${n}: ${v}`)
  const body = a.body.length > max ? `${a.body.slice(0, max)}… (${a.body.length} bytes)` : a.body
  return `${a.status} {${hs.join("; ")}} ${body}`
}
