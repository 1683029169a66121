/** The cases every fuzz run sends first, whatever the seed. */
import { consoleToken } from "./generate.ts"
import type { FuzzRequest } from "./request.ts"

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"))
const json = (s: string) => ({ body: utf8(s), framing: "length" as const })
const host = ["Host", "fuzz.test"] as const
const live = ["Authorization", "Bearer {{LIVE}}"] as const
const jsonType = ["Content-Type", "application/json"] as const

const consoleAuth = ["Authorization", `Bearer ${consoleToken}`] as const

/** DECISIONS 18: deeper than 64 levels is `400 invalid_json`, answered before any parsing, in a small body. */
const invalidJson = { status: 400, error: "invalid_json", maxBody: 200 } as const
/** DECISIONS 18: a refusal quotes at most 256 characters of the refused value, so it stays small. */
const refused = (error: string, status = 400) => ({ status, error, maxBody: 1_500 }) as const

/** Arrays nested `n` deep. */
const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`
const long = "x".repeat(100_000)

/** Deep nesting (65, 4,000 and ~900 KB of it) and 100 KB values where they are refused. */
const deepAndLong: ReadonlyArray<FuzzRequest> = [
  {
    label: "65 levels of nesting (one too many)",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json(`{"to":"0551234567","reference":${deep(64)}}`),
    expect: invalidJson,
  },
  {
    label: "64 levels of nesting (JSON like any other: reference is not a string)",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json(`{"to":"0551234567","reference":${deep(63)}}`),
    expect: refused("invalid_request"),
  },
  {
    // It was a 500: the Schema formatter's quote of the value overflowed the stack.
    label: "4,000 levels of nesting in a Schema-decoded field (console approval policy)",
    method: "PUT",
    target: "/console/v1/accounts/{{ACCOUNT}}/approval-policy",
    headers: [host, consoleAuth, jsonType],
    ...json(`{"operations":${deep(4_000)}}`),
    expect: invalidJson,
  },
  {
    label: "~900 KB of nesting on Verify start",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json(`{"to":"0551234567","reference":${deep(450_000)}}`),
    expect: invalidJson,
  },
  {
    label: "~900 KB of nesting on a console write",
    method: "POST",
    target: "/console/v1/accounts/{{ACCOUNT}}/wallet/credit",
    headers: [host, consoleAuth, jsonType],
    ...json(`{"amount_halalas":${deep(450_000)}}`),
    expect: invalidJson,
  },
  {
    label: "~900 KB of nesting on the account API (no token: 401 before the body)",
    method: "POST",
    target: "/v1/applications/{{APP}}/unpause",
    headers: [host, jsonType],
    ...json(`{"x":${deep(450_000)}}`),
    expect: { status: 401, error: "unauthorized", maxBody: 200 },
  },
  {
    label: "a 100 KB string where a list is due (console approval policy)",
    method: "PUT",
    target: "/console/v1/accounts/{{ACCOUNT}}/approval-policy",
    headers: [host, consoleAuth, jsonType],
    ...json(JSON.stringify({ operations: long })),
    expect: refused("invalid_request"),
  },
  {
    label: "100 KB of an unknown operation name (console approval policy)",
    method: "PUT",
    target: "/console/v1/accounts/{{ACCOUNT}}/approval-policy",
    headers: [host, consoleAuth, jsonType],
    ...json(JSON.stringify({ operations: [long] })),
    expect: refused("invalid_request"),
  },
  {
    label: "a field named by 100 KB of text holding NUL (Verify start)",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json(`{"to":"0551234567","${long}\\u0000":1}`),
    expect: refused("invalid_request"),
  },
  {
    label: "a 100 KB channel (Verify start)",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json(JSON.stringify({ to: "0551234567", channel: long })),
    expect: refused("unsupported_channel", 422),
  },
  {
    label: "a 100 KB destination (Verify start)",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json(JSON.stringify({ to: long })),
    expect: refused("invalid_destination", 422),
  },
]

export const fixedCases: ReadonlyArray<FuzzRequest> = [
  {
    label: "a UTF-8 BOM before valid JSON",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    body: new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"to":"0551234567","reference":"bom"}')]),
    framing: "length",
  },
  {
    label: "a 20 KB header",
    method: "GET",
    target: "/healthz",
    headers: [host, ["X-Big", "a".repeat(20 * 1024)]],
    body: undefined,
    framing: "length",
  },
  {
    label: "a 20 KB header on a keyed route",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType, ["X-Big", "a".repeat(20 * 1000)]],
    ...json('{"to":"0551234567"}'),
  },
  {
    label: "dot segments climbing out of /v1/verify",
    method: "GET",
    target: "/v1/verify/../../healthz",
    headers: [host],
    body: undefined,
    framing: "length",
  },
  {
    label: "encoded dot segments",
    method: "GET",
    target: "/v1/verify/%2e%2E/%2E%2e/healthz",
    headers: [host],
    body: undefined,
    framing: "length",
  },
  {
    label: "an unknown method",
    method: "FOO",
    target: "/healthz",
    headers: [host],
    body: undefined,
    framing: "length",
  },
  {
    label: "an unknown method with a body",
    method: "FOO",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json('{"to":"0551234567"}'),
  },
  { label: "lower-case get", method: "get", target: "/healthz", headers: [host], body: undefined, framing: "length" },
  {
    label: "lower-case post",
    method: "post",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json('{"to":"0551234567","reference":"lower"}'),
  },
  { label: "HEAD /healthz", method: "HEAD", target: "/healthz", headers: [host], body: undefined, framing: "length" },
  {
    label: "HEAD on an unknown path (404, no body)",
    method: "HEAD",
    target: "/nothing-here",
    headers: [host],
    body: undefined,
    framing: "length",
  },
  {
    label: "HEAD on a path no GET serves (405, no body)",
    method: "HEAD",
    target: "/v1/messages",
    headers: [host],
    body: undefined,
    framing: "length",
  },
  {
    label: "OPTIONS on a known path (204 with Allow)",
    method: "OPTIONS",
    target: "/v1/verify/start",
    headers: [host],
    body: undefined,
    framing: "length",
  },
  {
    label: "a CORS preflight from an allowed origin",
    method: "OPTIONS",
    target: "/api/v1/verify/check",
    headers: [host, ["Origin", "https://app.example"], ["Access-Control-Request-Method", "POST"]],
    body: undefined,
    framing: "length",
  },
  {
    label: "a method the path does not serve (405 with Allow)",
    method: "GET",
    target: "/v1/verify/start",
    headers: [host, live],
    body: undefined,
    framing: "length",
  },
  {
    label: "DELETE on a verification (405 with Allow)",
    method: "DELETE",
    target: "/v1/verify/{{VID}}",
    headers: [host, live],
    body: undefined,
    framing: "length",
  },
  {
    label: "\\u0000 in reference",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json('{"to":"0551234567","reference":"a\\u0000b"}'),
  },
  {
    label: "a lone surrogate in reference",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json('{"to":"0551234567","reference":"\\ud800"}'),
  },
  {
    label: "invalid UTF-8 in the body",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    body: new Uint8Array([...utf8('{"to":"055123456'), 0xff, ...utf8('"}')]),
    framing: "length",
  },
  {
    label: "Arabic-Indic digits in to",
    method: "POST",
    target: "/api/v1/verify/start",
    headers: [host, ["X-Api-Key", "{{LIVE}}"], jsonType],
    ...json('{"to":"٠٥٥١٢٣٤٥٦٧"}'),
  },
  {
    label: "10,000 levels of nesting",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    ...json(`{"to":"0551234567","reference":${"[".repeat(10_000)}${"]".repeat(10_000)}}`),
    expect: invalidJson,
  },
  ...deepAndLong,
  {
    label: "a chunked body",
    method: "POST",
    target: "/v1/verify/check",
    headers: [host, live, jsonType],
    body: utf8('{"id":"{{VID}}","code":"000000"}'),
    framing: "chunked",
    chunks: [3, 5, 1],
  },
  {
    label: "the absolute form",
    method: "GET",
    target: "http://fuzz.test/v1/verify/{{VID}}?x=1",
    headers: [host, live],
    body: undefined,
    framing: "length",
  },
  {
    label: "a body over 1 MiB",
    method: "POST",
    target: "/v1/verify/start",
    headers: [host, live, jsonType],
    body: new Uint8Array(1024 * 1024 + 1).fill(0x20),
    framing: "length",
  },
  {
    label: "repeated Set-Cookie fields at exactly the header limit (joined as Node joins them)",
    method: "GET",
    target: "/healthz",
    headers: [host, ["Set-Cookie", "a=1"], ["Set-Cookie", "b=2"], ["X-Fill", "f".repeat(16384 - 37)]],
    body: undefined,
    framing: "length",
  },
  {
    // Joined as `, b`: 16,385 bytes counted.
    label: "an empty field repeated before a value, one byte over the header limit",
    method: "GET",
    target: "/healthz",
    headers: [host, ["X-A", ""], ["X-A", "b"], ["X-Fill", "f".repeat(16360)]],
    body: undefined,
    framing: "length",
  },
  {
    // Joined as `b, `: 16,385 bytes counted.
    label: "an empty field repeated after a value, one byte over the header limit",
    method: "GET",
    target: "/healthz",
    headers: [host, ["X-A", "b"], ["X-A", ""], ["X-Fill", "f".repeat(16360)]],
    body: undefined,
    framing: "length",
  },
  {
    label: "repeated Authorization fields",
    method: "GET",
    target: "/v1/verify/{{VID}}",
    headers: [host, ["Authorization", "Bearer {{LIVE1}}"], ["Authorization", "Bearer {{LIVE2}}"]],
    body: undefined,
    framing: "length",
  },
  {
    label: "a lower-case method with a chunked body",
    method: "put",
    target: "/v1/verify/check",
    headers: [host, live, jsonType],
    body: utf8("{}"),
    framing: "chunked",
  },
  {
    label: "an unknown method with a 70 KB body",
    method: "FOO",
    target: "/v1/verify/check",
    headers: [host, live, jsonType],
    body: new Uint8Array(70_000).fill(0x20),
    framing: "length",
  },
]
