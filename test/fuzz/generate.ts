/**
 * The request generator (fast-check): methods, request targets, header fields and bodies, each mixing the
 * platform's real routes and usual requests (`usualArb`: Verify with a demo key) with everything an HTTP
 * client could send instead (`wildArb`).
 *
 * It keeps to requests that are valid HTTP/1.1 on the wire and that a web server could hand over as a
 * `Request` (`representable` in request.ts checks every one). Left out, and why:
 *
 * - bytes >= 0x80, controls and spaces in the request target: not HTTP/1.1; Deno answers a bare 400 before
 *   any code of ours runs, Node's parser refuses them (the Node and Bun hosts then answer 400 invalid_request,
 *   Express a bare 400), and a web server's URL parser would percent-encode them instead (404);
 * - request-target characters outside RFC 3986 (`"<>\^`{|}`) and `#`: not HTTP/1.1 either;
 * - control characters other than HTAB in header values (0x01-0x08, 0x0B-0x1F, 0x7F; CR, LF, NUL are no field
 *   at all): Deno answers a bare 400, Node's parser refuses them (the Node and Bun hosts then answer from the
 *   raw bytes as if they were valid, Express a bare 400), while a web Request takes them;
 * - CONNECT, TRACE, TRACK: `Request` refuses them (and Express drops the connection on CONNECT);
 * - the asterisk and authority forms (`OPTIONS *`, `CONNECT host:443`): no Request URL holds them;
 * - a body on GET or HEAD (also `get`, `head`): `Request` refuses one;
 * - `Expect: 100-continue`: its interim 100 answer (Node writes one) has no counterpart in a web handler;
 * - Connection, Upgrade, TE and the other hop-by-hop fields, and framing beyond the one Content-Length or
 *   `Transfer-Encoding: chunked` the serializer writes: the transport, not the request (two framings are
 *   invalid HTTP/1.1);
 * - heads over ~46 KiB: Deno's own parser answers heads over about 64 KiB with a bare 400 (the Node and Bun
 *   hosts with the JSON 431); the platform's limit, 16 KiB, is crossed well below that;
 * - a body over 1 MiB in chunks after a method Bun's parser does not know (`FOO`, `post`): Bun's node:http
 *   hands over no bytes of a refused head after its first packet, so Bun answers 400 invalid_request;
 * - requests without Host: HTTP/1.1 requires one (each way in answers them alike all the same);
 * - `POST /console/v1/simulator/clock`: it would move the simulated clocks the run relies on.
 */
import fc from "fast-check"
import { filledLength as filledLengthOf, type FuzzRequest } from "./request.ts"

/** `arb` in about `percent` % of the values, `undefined` otherwise. */
const sometimes = <T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(undefined) }, { weight: percent, arbitrary: arb })

/** How many demo key pairs every way in holds (slot 0 is the pair the instance printed at start). */
export const keySlots = 24
/** Further key pairs, never generated: a request showing a new difference is sent again with them (fuzz.ts). */
export const replaySlots = 64
export const consoleToken = "fuzz-console-token"
export const allowedOrigin = "https://app.example"
export const allowedOrigins = [allowedOrigin, "https://admin.example"]

/** The platform's header-size limit (core/limits.ts Http.maxHeaderBytes). */
export const headerLimit = 16 * 1024
/** The generator's ceiling for the whole head on the wire. */
export const maxHeadBytes = 46 * 1024

const tokenChars = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const token = (min = 1, max = 12) =>
  fc.array(fc.constantFrom(...tokenChars), { minLength: min, maxLength: max }).map((cs) => cs.join(""))

// ---------------------------------------------------------------------------------------------- methods

const knownMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
const forbidden = /^(connect|trace|track)$/i

export const methodArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom("GET", "POST") },
  { weight: 8, arbitrary: fc.constantFrom(...knownMethods) },
  { weight: 2, arbitrary: fc.constantFrom("get", "post", "put", "patch", "delete", "options", "head", "Post", "gEt") },
  { weight: 2, arbitrary: fc.constantFrom("FOO", "PURGE", "PROPFIND", "M-SEARCH", "QUERY", "LINK", "foo", "BREW") },
  { weight: 1, arbitrary: token(1, 10).filter((m) => !forbidden.test(m)) },
)

// ---------------------------------------------------------------------------------------------- targets

/** An id where a route takes one. */
const idArb = (own: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(own) },
    { weight: 2, arbitrary: fc.uuid() },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "not-an-id",
        "00000000-0000-0000-0000-000000000000",
        "%00",
        "%zz",
        "%C3%A9",
        "%ED%A0%80",
        "%2F",
        "%2e%2E",
        "..",
        ".",
        "a%20b",
        "%25",
        "x".repeat(300),
      ),
    },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@]{1,40}$/) },
  )

const vid = idArb("{{VID}}")
const app = idArb("{{APP}}")
const account = idArb("{{ACCOUNT}}")

const v1 = fc.constantFrom("/v1", "/api/v1", "/v1", "/api/v1", "/V1", "/api/V1", "/api", "/v2")

/** The routes a request is usually aimed at, and some near them. */
const routeArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constant("/healthz") },
  { weight: 1, arbitrary: fc.constantFrom("/healthz/", "/HEALTHZ", "/healthz.json", "/", "/favicon.ico") },
  { weight: 2, arbitrary: v1.map((p) => `${p}/messages`) },
  { weight: 8, arbitrary: v1.map((p) => `${p}/verify/start`) },
  { weight: 6, arbitrary: v1.map((p) => `${p}/verify/check`) },
  { weight: 5, arbitrary: fc.tuple(v1, vid).map(([p, id]) => `${p}/verify/${id}`) },
  {
    weight: 4,
    arbitrary: fc.tuple(v1, vid, fc.constantFrom("resend", "cancel", "Resend", "check", "start")).map(([p, id, a]) =>
      `${p}/verify/${id}/${a}`
    ),
  },
  { weight: 2, arbitrary: fc.tuple(v1, app).map(([p, id]) => `${p}/applications/${id}/unpause`) },
  { weight: 2, arbitrary: v1.map((p) => `${p}/account/wallet`) },
  { weight: 1, arbitrary: v1.map((p) => `${p}/verify`) },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.constant("/console/v1/accounts"),
      account.map((a) => `/console/v1/accounts/${a}/applications`),
      app.map((a) => `/console/v1/applications/${a}/approve`),
      app.map((a) => `/console/v1/applications/${a}/keys`),
      account.map((a) => `/console/v1/accounts/${a}/keys`),
      app.map((a) => `/console/v1/applications/${a}/connected-app-keys`),
      account.map((a) => `/console/v1/accounts/${a}/account-tokens`),
      fc.uuid().map((k) => `/console/v1/keys/${k}`),
      app.map((a) => `/console/v1/applications/${a}/verify-settings`),
      account.map((a) => `/console/v1/accounts/${a}/sandbox-destinations`),
      account.map((a) => `/console/v1/accounts/${a}/wallet/credit`),
      account.map((a) => `/console/v1/accounts/${a}/approval-policy`),
      fc.constant("/console/v1/simulator/sms"),
      app.map((a) => `/console/v1/applications/${a}/webhook`),
      fc.constant("/console/v1/webhook-deliveries"),
      fc.uuid().map((d) => `/console/v1/webhook-deliveries/${d}/replay`),
      fc.constant("/console/v1"),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.array(fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@]{0,12}$/), { minLength: 0, maxLength: 5 })
      .map((segs) => `/${segs.join("/")}`),
  },
)

/** What is put into a path: dot segments (also encoded), empty segments, encodings valid and not. */
const insertion = fc.constantFrom(
  ".",
  "..",
  "%2e",
  "%2E",
  "%2e%2E",
  "%2E.",
  ".%2e",
  "x/..",
  "x/%2e%2e",
  "",
  "%zz",
  "%",
  "%0",
  "%00",
  "%C3%A9",
  "%c3%a9",
  "%ED%A0%80",
  "%FF",
  "%2F",
  "%2f",
  "%3F",
  "%23",
  "%5C",
  ";a=b",
  "+",
  "~",
  "v1",
  "api",
)

/** True when index `i` of `p` is within a `{{…}}` placeholder. */
const insidePlaceholder = (p: string, i: number) => {
  const open = p.lastIndexOf("{{", i)
  return open !== -1 && p.indexOf("}}", open) + 1 >= i
}

type Mutation = (path: string, at: number, pick: string) => string

const segmentBounds = (path: string) => {
  const out: Array<number> = []
  for (let i = 0; i < path.length; i++) if (path[i] === "/") out.push(i)
  return out
}

const mutations: ReadonlyArray<Mutation> = [
  // A segment inserted at a slash.
  (p, at, pick) => {
    const b = segmentBounds(p)
    const i = b[at % b.length] ?? 0
    return `${p.slice(0, i)}/${pick}${p.slice(i)}`
  },
  // A slash doubled.
  (p, at) => {
    const b = segmentBounds(p)
    const i = b[at % b.length] ?? 0
    return `${p.slice(0, i)}/${p.slice(i)}`
  },
  // One character percent-encoded (either hex case).
  (p, at, pick) => {
    const i = 1 + (at % Math.max(1, p.length - 1))
    const c = p.charCodeAt(i)
    if (Number.isNaN(c) || p[i] === "%" || insidePlaceholder(p, i)) return p
    const hex = c.toString(16).padStart(2, "0")
    return `${p.slice(0, i)}%${pick.length % 2 === 0 ? hex.toUpperCase() : hex}${p.slice(i + 1)}`
  },
  // Climbing out: `/v1/verify/../../healthz`.
  (p, at) => `/v1/verify${"/..".repeat(1 + (at % 3))}${p}`,
  (p, at) => `/api/v1/x/%2e%2e/..${at % 2 === 0 ? "/%2e%2E" : ""}${p}`,
  // A trailing slash or dot segment.
  (p, _at, pick) => `${p}/${pick === ".." ? "." : ""}`,
  // Text appended to the last segment.
  (p, _at, pick) => `${p}${pick}`,
]

const queryValue = fc.oneof(
  fc.constantFrom(
    "{{APP}}",
    "demo",
    "0551234567",
    "%2B966551234567",
    "+966551234567",
    "%D9%A0%D9%A5",
    "%zz",
    "%00",
    "",
    "a%20b",
    "x+y",
  ),
  fc.stringMatching(/^[A-Za-z0-9\-._~!$'()*+,;:@/?%]{0,20}$/),
)
const queryArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: fc.constantFrom("?", "??", "?&", "?=", "?a") },
  {
    weight: 3,
    arbitrary: fc.array(
      fc.tuple(fc.constantFrom("application", "service", "to", "limit", "status", "x", "Application"), queryValue),
      { minLength: 1, maxLength: 4 },
    ).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`),
  },
  // A long query (the request line counts towards some servers' own head limits, not the platform's).
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 1_000, max: 12_000 }), fc.constantFrom("x", "%41", "a=b&")).map(([n, u]) =>
      `?q=${u.repeat(Math.ceil(n / u.length))}`
    ),
  },
)

export const targetArb: fc.Arbitrary<string> = fc.tuple(
  routeArb,
  fc.array(fc.tuple(fc.nat(mutations.length - 1), fc.nat(50), insertion), { maxLength: 3 }),
  fc.nat(5),
  queryArb,
  fc.nat(40),
).map(([route, muts, mutate, query, absolute]) => {
  let path = route
  // Most requests go as they are; some get one to three mutations.
  if (mutate < 2) { for (const [m, at, pick] of muts) path = mutations[m](path, at, pick) }
  const target = path + query
  return absolute === 0 ? `http://fuzz.test${target}` : absolute === 1 ? `HTTP://FUZZ.TEST:80${target}` : target
})

// ---------------------------------------------------------------------------------------------- headers

type Field = readonly [string, string]

/** A name in some letter case. */
const cased = (name: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(name) },
    { weight: 2, arbitrary: fc.constant(name.toLowerCase()) },
    { weight: 1, arbitrary: fc.constant(name.toUpperCase()) },
    {
      weight: 1,
      arbitrary: fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((ups) =>
        [...name].map((c, i) => (ups[i] ? c.toUpperCase() : c.toLowerCase())).join("")
      ),
    },
  )

const field = (name: string, value: fc.Arbitrary<string>): fc.Arbitrary<Field> =>
  fc.tuple(cased(name), value).map(([n, v]) => [n, v] as const)

/** Slot 0 (the printed keys) often enough to reach its rate limit in a long run, the others rarely. */
const slot = fc.oneof({ weight: 1, arbitrary: fc.constant("") }, {
  weight: 7,
  arbitrary: fc.integer({ min: 1, max: keySlots - 1 }).map(String),
})
const demoKey = fc.tuple(fc.constantFrom("LIVE", "LIVE", "LIVE", "TEST"), slot).map(([k, s]) => `{{${k}${s}}}`)
const randomKey = fc.oneof(
  token(1, 40),
  fc.stringMatching(/^[A-Za-z0-9_-]{32}$/).map((b) => `svc_live_${b}`),
  fc.stringMatching(/^[A-Za-z0-9_-]{32}$/).map((b) => `svc_test_${b}`),
  fc.constantFrom("svc_live_", "svc_acct_x", "svc_partner_abc", "{{LIVE}}x", "x{{LIVE}}"),
)
const presented = fc.oneof({ weight: 5, arbitrary: demoKey }, { weight: 2, arbitrary: randomKey })

const bearer = fc.tuple(
  fc.constantFrom(
    "Bearer ",
    "Bearer ",
    "Bearer ",
    "bearer ",
    "BEARER ",
    "Bearer  ",
    "Bearer\t",
    "Basic ",
    "Token ",
    "Bearer",
  ),
  fc.oneof({ weight: 6, arbitrary: presented }, { weight: 1, arbitrary: fc.constant(consoleToken) }),
  fc.constantFrom("", "", "", "", " ", "\t", " x", ","),
).map(([scheme, key, tail]) => `${scheme}${key}${tail}`)

const authArb: fc.Arbitrary<ReadonlyArray<Field>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant([]) },
  { weight: 8, arbitrary: field("Authorization", bearer).map((f) => [f]) },
  {
    weight: 3,
    arbitrary: field("X-Api-Key", fc.tuple(fc.constantFrom("", "", " "), presented).map(([s, k]) => `${s}${k}${s}`))
      .map((
        f,
      ) => [f]),
  },
  { weight: 2, arbitrary: fc.tuple(field("Authorization", bearer), field("X-Api-Key", presented)) },
  // Repeated fields (joined with `, ` by every host).
  { weight: 1, arbitrary: fc.tuple(field("Authorization", bearer), field("Authorization", bearer)) },
  { weight: 1, arbitrary: fc.tuple(field("X-Api-Key", presented), field("X-Api-Key", presented)) },
  { weight: 1, arbitrary: field("Authorization", fc.constant(`Bearer ${consoleToken}`)).map((f) => [f]) },
)

const contentTypeArb: fc.Arbitrary<ReadonlyArray<Field>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant([]) },
  {
    weight: 6,
    arbitrary: field(
      "Content-Type",
      fc.constantFrom(
        "application/json",
        "application/json",
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "",
        "application/json; charset=latin1",
      ),
    ).map((f) => [f]),
  },
)

const printable = (max: number, min = 0) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: min,
    maxLength: max,
  })

/** A header value: visible ASCII with spaces and tabs, now and then a byte above 0x7f (obs-text). */
const valueArb = (max: number) =>
  fc.oneof(
    { weight: 8, arbitrary: printable(max) },
    {
      weight: 1,
      arbitrary: fc.string({
        unit: fc.oneof(
          fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          fc.constant("\t"),
          fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
        ),
        maxLength: max,
      }),
    },
  )

const idempotencyArb: fc.Arbitrary<ReadonlyArray<Field>> = fc.oneof(
  { weight: 10, arbitrary: fc.constant([]) },
  {
    weight: 4,
    arbitrary: field(
      "Idempotency-Key",
      fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom("k-1", "k-2", "order 3", "k-1") },
        { weight: 2, arbitrary: printable(128, 1) },
        { weight: 1, arbitrary: printable(200, 129) },
        { weight: 1, arbitrary: fc.constantFrom("", " ", "a\tb", "caf\xe9", "x".repeat(128), "y".repeat(129)) },
      ),
    ).map((f) => [f]),
  },
)

const corsArb: fc.Arbitrary<ReadonlyArray<Field>> = fc.oneof(
  { weight: 10, arbitrary: fc.constant([]) },
  {
    weight: 3,
    arbitrary: fc.tuple(
      field("Origin", fc.constantFrom(allowedOrigin, "https://admin.example", "https://evil.example", "null", "")),
      sometimes(field("Access-Control-Request-Method", fc.constantFrom("POST", "GET", "PUT", "FOO", "")), 60),
      sometimes(field("Access-Control-Request-Headers", fc.constantFrom("authorization, content-type", "x-foo")), 30),
    ).map(([o, m, h]) => [o, ...(m ? [m] : []), ...(h ? [h] : [])]),
  },
)

const otherName = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "Accept",
      "User-Agent",
      "Accept-Encoding",
      "Cookie",
      "Set-Cookie",
      "X-Forwarded-For",
      "X-Request-Id",
      "Expect-CT",
      "If-None-Match",
      "Range",
      "Referer",
      "X-Api-Key",
      "Authorization",
      "Content-Type",
      "Idempotency-Key",
      "Origin",
    ),
  },
  { weight: 2, arbitrary: token(1, 30).map((t) => `X-${t}`) },
  { weight: 1, arbitrary: token(1, 40) },
)

const otherFields = fc.array(fc.tuple(otherName, valueArb(120)), { maxLength: 6 })

/** Large fields: a few KiB each, some near and past the platform's 16 KiB limit. */
const bigField = fc.tuple(
  otherName,
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 500, max: 6_000 }) },
    { weight: 2, arbitrary: fc.integer({ min: 15_500, max: 17_500 }) },
    { weight: 1, arbitrary: fc.integer({ min: 17_500, max: 30_000 }) },
  ),
  fc.constantFrom("x", "a", "0", "=", "-", " ", "ab", "é"),
).map(([n, size, c]) => [n, (c === "é" ? "\xe9" : c).repeat(Math.ceil(size / c.length)).slice(0, size)] as const)
const bigFields = fc.oneof(
  { weight: 85, arbitrary: fc.constant([]) },
  { weight: 15, arbitrary: fc.array(bigField, { minLength: 1, maxLength: 2 }) },
)

/**
 * The fields' size as the platform counts it (adapters/http/edge.ts `headerBytes`): each distinct name once,
 * and every byte of every value but spaces, tabs and commas.
 */
export const countedHeaderBytes = (fields: ReadonlyArray<Field>, filledLength: (s: string) => number): number => {
  const names = new Set<string>()
  let total = 0
  for (const [n, v] of fields) {
    const name = n.toLowerCase()
    if (!names.has(name)) {
      names.add(name)
      total += name.length
    }
    total += filledLength(v.replace(/[ \t,]/g, ""))
  }
  return total
}

export const hostArb = fc.constantFrom("fuzz.test", "127.0.0.1", "localhost:8080", "fuzz.test:80", "[::1]")

// ---------------------------------------------------------------------------------------------- bodies

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"))
const bom = [0xef, 0xbb, 0xbf]

const phoneArb = fc.oneof(
  fc.constantFrom(
    "0551234567",
    "+966551234567",
    "966551234567",
    "00966551234567",
    "551234567",
    "055 123 4567",
    "055-123-4567",
    "٠٥٥١٢٣٤٥٦٧",
    "۰۵۵۱۲۳۴۵۶۷",
    "+966500000000",
    "0500000000",
    "+966500000001",
    "0512345678",
    "0412345678",
    "+1 555 0100",
    "",
    " ",
    "05512345678",
    "0551234567\u0000",
    "05512345\ud800",
  ),
  fc.stringMatching(/^05[0-9]{8}$/),
  fc.stringMatching(/^\+?[0-9 \-]{0,16}$/),
)

const unicodeText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("signup-42", "", "مرحبا", "😀", "\u{10FFFF}", "\u{E0001}", "\u{1F600}\u{20000}", "x".repeat(257)),
)

/** JSON text with `\u0000` or a lone surrogate escaped in it (JSON.stringify would not write the latter). */
const escapedOddities = fc.constantFrom(
  "\\u0000",
  "\\ud800",
  "\\uDC00",
  "\\udbff\\udfff",
  "\\ud83d",
  "a\\u0000b",
  "\\uFFFF",
  "\\uFEFF",
)

const jsonValue = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      1e308,
      -0,
      Number.MAX_SAFE_INTEGER,
      Number.MAX_SAFE_INTEGER + 2,
      0.1,
      -1,
      123456789,
      true,
      null,
      [],
      {},
    ),
  },
)

/** A JSON object as text, from its members' texts. */
const objectText = (members: ReadonlyArray<readonly [string, string]>) =>
  `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`

const startBody = fc.tuple(
  phoneArb,
  sometimes(fc.oneof(unicodeText, escapedOddities.map((e) => `RAW:${e}`)), 40),
  sometimes(fc.constantFrom("sms", "SMS", "whatsapp", "", "voice"), 15),
  sometimes(fc.constantFrom("127.0.0.1", "::1", "203.0.113.9", "999.1.1.1", "", "::ffff:10.0.0.1"), 15),
  sometimes(fc.constantFrom("{{APP}}", "demo", "nope"), 10),
).map(([to, reference, channel, clientIp, application]) => {
  const members: Array<[string, string]> = [["to", JSON.stringify(to)]]
  if (reference !== undefined) {
    members.push(["reference", reference.startsWith("RAW:") ? `"${reference.slice(4)}"` : JSON.stringify(reference)])
  }
  if (channel !== undefined) members.push(["channel", JSON.stringify(channel)])
  if (clientIp !== undefined) members.push(["client_ip", JSON.stringify(clientIp)])
  if (application !== undefined) members.push(["application", JSON.stringify(application)])
  return objectText(members)
})

const checkBody = fc.tuple(
  fc.oneof({ weight: 4, arbitrary: fc.constant("{{VID}}") }, { weight: 1, arbitrary: fc.uuid() }, {
    weight: 1,
    arbitrary: fc.constantFrom("", "x", "\\u0000", "\\ud800"),
  }),
  fc.oneof(
    // The code the SMS simulator sent (as text; as a number it could start with 0 on one instance only).
    { weight: 3, arbitrary: fc.constantFrom('"{{CODE}}"', '"{{CODE}}"', '" {{CODE}}"') },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9]{4,8}$/).map((c) => JSON.stringify(c)) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 99999999 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('""', "null", "1e400", "123456.0", '"١٢٣٤٥٦"', "[]") },
  ),
).map(([id, code]) => `{"id":"${id}","code":${code}}`)

/** Nesting around the 64 levels allowed (DECISIONS 18) and far past them, alone or in a field decoders read. */
const nested = fc.tuple(
  fc.oneof(fc.integer({ min: 1, max: 12_000 }), fc.integer({ min: 60, max: 70 })),
  fc.constantFrom("array", "object", "mixed"),
  fc.constantFrom(undefined, "reference", "reference", "amount_halalas", "name", "code", "id", "to"),
)
  .map(([depth, kind, field]) => {
    const open = kind === "array" ? "[" : kind === "object" ? '{"a":' : '{"a":['
    const close = kind === "array" ? "]" : kind === "object" ? "}" : "]}"
    const n = kind === "mixed" ? Math.ceil(depth / 2) : depth
    const inner = `${open.repeat(n)}1${close.repeat(n)}`
    return field === undefined ? inner : `{"to":"0551234567","${field}":${inner}}`
  })

/**
 * A value or a field name of 257 to 20,000 characters where it is refused: a refusal quotes at most 256 of
 * it (DECISIONS 18; compare.ts `faults` holds every refusal to that).
 */
const longEcho = fc.tuple(
  fc.constantFrom("to", "channel", "reference", "code", "id", "amount_halalas", "name", "operations", "a field name"),
  fc.integer({ min: 257, max: 20_000 }),
  fc.constantFrom("q", "é", "ق", "\\", '"'),
  fc.constantFrom("string", "list", "number-like"),
).map(([field, n, c, shape]) => {
  const text = c.repeat(n)
  const value = shape === "list" ? [text] : shape === "number-like" ? "9".repeat(n) : text
  return field === "a field name"
    ? JSON.stringify({ to: "0551234567", [text]: 1 })
    : JSON.stringify({ to: "0551234567", [field]: value })
})

const hugeNumbers = fc.constantFrom(
  '{"to":1e400}',
  '{"to":"0551234567","reference":1e999999}',
  `{"to":"0551234567","code_length":${"9".repeat(400)}}`,
  `{"id":"{{VID}}","code":${"1".repeat(5000)}}`,
  '{"amount_halalas":1e21}',
  '{"amount_halalas":-0}',
  '{"advance":0.000000000000000000000000000001}',
  `[${"1,".repeat(3000)}1]`,
  '{"to":"0551234567","reference":-1e-400}',
)

const invalidUtf8 = fc.constantFrom(
  [0xff],
  [0xc3],
  [0xc3, 0x28],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0x80],
  [0xfe, 0xff],
  [0xf0, 0x9f, 0x98],
)

/** A JSON text with invalid UTF-8 spliced into a string. */
const withInvalidUtf8 = fc.tuple(
  fc.constantFrom('{"to":"', '{"id":"{{VID}}","code":"', '{"reference":"', '"'),
  invalidUtf8,
)
  .map(([pre, bytes]) => new Uint8Array([...utf8(pre), ...bytes, ...utf8('"}')]))

const textBody = (s: fc.Arbitrary<string>) => s.map(utf8)

/** The bodies, as bytes. */
export const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(new Uint8Array(0)) },
  { weight: 10, arbitrary: textBody(startBody) },
  { weight: 5, arbitrary: textBody(checkBody) },
  { weight: 2, arbitrary: textBody(startBody).map((b) => new Uint8Array([...bom, ...b])) },
  { weight: 1, arbitrary: textBody(checkBody).map((b) => new Uint8Array([...bom, ...b])) },
  { weight: 3, arbitrary: textBody(jsonValue.map((v) => JSON.stringify(v))) },
  { weight: 1, arbitrary: textBody(fc.jsonValue({ maxDepth: 2 }).map((v) => `\ufeff${JSON.stringify(v)}`)) },
  { weight: 2, arbitrary: textBody(nested) },
  { weight: 2, arbitrary: textBody(longEcho) },
  { weight: 2, arbitrary: textBody(hugeNumbers) },
  { weight: 2, arbitrary: withInvalidUtf8 },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 120 }) },
  {
    weight: 2,
    arbitrary: textBody(
      fc.tuple(fc.constantFrom("reference", "to", "name", "url", "application", "id", "code"), unicodeText).map((
        [k, v],
      ) => objectText([["to", '"0551234567"'], [k, JSON.stringify(v)]])),
    ),
  },
  {
    weight: 2,
    arbitrary: textBody(
      fc.tuple(fc.constantFrom("reference", "to", "name", "application", "id", "code", "\\u0000"), escapedOddities).map(
        (
          [k, e],
        ) => `{"to":"0551234567","${k}":"${e}"}`,
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: textBody(
      fc.constantFrom(
        "null",
        "1",
        '"x"',
        "true",
        "[]",
        '[{"to":"0551234567"}]',
        "{",
        "{}}",
        " ",
        "\n",
        "{} ",
        '{"to":"0551234567",}',
        "{'to':'0551234567'}",
        '{"__proto__":{"to":"0551234567"}}',
        '{"to":"0551234567","to":"0500000000"}',
        "\ufeff\ufeff{}",
        "\ufeff",
        "\u0000",
        "to=0551234567",
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      new Uint8Array([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d]),
      new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
    ),
  },
)

// ---------------------------------------------------------------------------------------------- requests

/** Methods that carry no body (as Fetch reads them: `get` is GET). */
const bodyless = (method: string) => /^(get|head)$/i.test(method)

/** Any request: every part drawn from its whole range. */
const wildArb: fc.Arbitrary<FuzzRequest> = fc.record({
  method: methodArb,
  target: targetArb,
  host: hostArb,
  auth: authArb,
  contentType: contentTypeArb,
  idempotency: idempotencyArb,
  cors: corsArb,
  other: otherFields,
  big: bigFields,
  boundary: sometimes(fc.integer({ min: -24, max: 24 }), 8),
  order: fc.nat(1000),
  body: fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 7, arbitrary: bodyArb }),
  framing: fc.constantFrom("length", "length", "length", "length", "length", "chunked"),
  chunks: fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 4 }),
  tooLarge: fc.nat(150),
}).map((r) => {
  const fields: Array<Field> = [...r.auth, ...r.contentType, ...r.idempotency, ...r.cors, ...r.other, ...r.big]
  // A stable shuffle of the fields after Host (the order of the rest does not matter to any server).
  for (let i = fields.length - 1; i > 0; i--) {
    const j = (r.order * (i + 7)) % (i + 1)
    ;[fields[i], fields[j]] = [fields[j], fields[i]]
  }
  let body = bodyless(r.method) ? undefined : r.body
  // Now and then a body just over the 1 MiB limit; in chunks only after a method Bun's parser knows: Bun's
  // node:http hands over none of a refused head's body after its first packet, so it cannot count chunks
  // (docs/decisions.md, "One request model").
  if (!bodyless(r.method) && r.tooLarge === 0 && (r.framing === "length" || knownMethods.includes(r.method))) {
    body = new Uint8Array(1024 * 1024 + 1).fill(0x20)
  }
  const headers: Array<Field> = [["Host", r.host], ...fields]
  const framing = r.framing as "length" | "chunked"
  return finish(
    {
      method: r.method,
      target: r.target,
      headers,
      body,
      framing,
      ...(framing === "chunked" ? { chunks: r.chunks } : {}),
    },
    r.boundary,
  )
})

/** The requests an integration sends: Verify with a demo key, mostly well formed. */
const usualArb: fc.Arbitrary<FuzzRequest> = fc.record({
  op: fc.constantFrom("start", "start", "start", "check", "check", "read", "resend", "cancel", "wallet"),
  prefix: fc.constantFrom("/v1", "/api/v1"),
  key: fc.oneof({ weight: 6, arbitrary: demoKey }, { weight: 1, arbitrary: randomKey }),
  apiKey: fc.boolean(),
  contentType: contentTypeArb,
  idempotency: idempotencyArb,
  cors: corsArb,
  start: startBody,
  check: checkBody,
  other: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: bodyArb }),
  host: hostArb,
}).map((r): FuzzRequest => {
  const read = r.op === "read" || r.op === "wallet"
  const target = r.op === "start" || r.op === "check"
    ? `${r.prefix}/verify/${r.op}`
    : r.op === "wallet"
    ? `${r.prefix}/account/wallet`
    : r.op === "read"
    ? `${r.prefix}/verify/{{VID}}`
    : `${r.prefix}/verify/{{VID}}/${r.op}`
  const text = r.op === "start" ? r.start : r.op === "check" ? r.check : "{}"
  const body = read ? undefined : r.other ?? new Uint8Array(Buffer.from(text, "utf8"))
  const auth: Field = r.apiKey ? ["X-Api-Key", r.key] : ["Authorization", `Bearer ${r.key}`]
  return finish({
    method: read ? "GET" : "POST",
    target,
    headers: [["Host", r.host], auth, ...r.contentType, ...(read ? [] : r.idempotency), ...r.cors],
    body,
    framing: "length",
  }, undefined)
})

export const requestArb: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 1, arbitrary: usualArb },
  { weight: 1, arbitrary: wildArb },
)

/**
 * Keeps the head under `maxHeadBytes` (big values cut), and for `boundary`, adds a field that brings the
 * counted header size to the platform's limit plus `boundary` (so both sides of 16 KiB are tried exactly).
 */
export const finish = (req: FuzzRequest, boundary: number | undefined, filled = filledLengthOf): FuzzRequest => {
  let headers = [...req.headers]
  const framingField = req.body === undefined
    ? []
    : req.framing === "chunked"
    ? [["Transfer-Encoding", "chunked"] as const]
    : [["Content-Length", String(req.body.length)] as const]
  const wire = () => headers.reduce((n, [k, v]) => n + k.length + filled(v) + 4, req.target.length + 16)
  while (wire() > maxHeadBytes - 200) {
    let biggest = 0
    for (let i = 1; i < headers.length; i++) if (headers[i][1].length > headers[biggest][1].length) biggest = i
    const [n, v] = headers[biggest]
    if (v.length === 0) break
    headers[biggest] = [n, v.slice(0, Math.max(0, v.length - (wire() - maxHeadBytes + 400)))]
  }
  if (boundary !== undefined) {
    const name = "X-Fill"
    const counted = countedHeaderBytes([...headers, ...framingField, [name, ""]], filled)
    const want = headerLimit + boundary - counted
    if (want >= 0 && wire() + want < maxHeadBytes) headers = [...headers, [name, "f".repeat(want)]]
  }
  return { ...req, headers }
}
