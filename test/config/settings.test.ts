/**
 * Issue 32, configuration: every setting is read and checked in adapters/config.ts before the store opens; a
 * refused value is one line naming the variable, what was given and what is accepted. In process here (each
 * case through a ConfigProvider of its own); test/config/start-refused.test.ts starts the host with each.
 */
import { readFileSync } from "node:fs"
import { ConfigProvider, Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { consoleTokenMinLength, settingsFromEnv, variables } from "../../adapters/config.ts"
import { preflight } from "../../adapters/preflight.ts"

const read = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.either(Effect.withConfigProvider(settingsFromEnv, ConfigProvider.fromMap(new Map(Object.entries(env))))),
  )

const refusal = async (env: Record<string, string>) => {
  const r = await read(env)
  if (Either.isRight(r)) throw new Error(`accepted: ${JSON.stringify(env)}`)
  return r.left.oneLine
}

describe("a refused setting is one line: the variable, what was given, what is accepted", () => {
  it.each([
    [{ PORT: "abc" }, /^configuration: PORT="abc" is not accepted; expected an integer from 0 to 65535/],
    [{ PORT: "70000" }, /^configuration: PORT="70000" is not accepted/],
    [
      { DATABASE_URL: "not-a-url" },
      /^configuration: DATABASE_URL="not-a-url" is not accepted; expected a postgres:\/\//,
    ],
    [{ DATABASE_URL: "mysql://h/db" }, /^configuration: DATABASE_URL="mysql:\/\/h\/db" is not accepted/],
    [
      { SMS_PROVIDER: "twilio" },
      /^configuration: SMS_PROVIDER="twilio" is not accepted; expected "simulator" or "unifonic"$/,
    ],
    [
      { CHAT_PROVIDER: "x" },
      /^configuration: CHAT_PROVIDER="x" is not accepted; expected "simulator" or "whatsapp_cloud"$/,
    ],
    [{ PAYMENT_PROVIDER: "x" }, /^configuration: PAYMENT_PROVIDER="x" is not accepted; expected "simulator"$/],
    [{ SMS_PROVIDER: "unifonic" }, /^configuration: UNIFONIC_APP_SID is not set; .*SMS_PROVIDER=unifonic needs it/],
    [
      { SMS_PROVIDER: "unifonic", UNIFONIC_APP_SID: "sid" },
      /^configuration: UNIFONIC_SENDER_ID is not set; .*SMS_PROVIDER=unifonic needs it/,
    ],
    [{ CHAT_PROVIDER: "whatsapp_cloud" }, /^configuration: WHATSAPP_ACCESS_TOKEN is not set; .*needs it/],
    [
      {
        CHAT_PROVIDER: "whatsapp_cloud",
        WHATSAPP_ACCESS_TOKEN: "a",
        WHATSAPP_APP_SECRET: "b",
        WHATSAPP_VERIFY_TOKEN: "c",
        WHATSAPP_NUMBERS: "{",
      },
      /^configuration: WHATSAPP_NUMBERS="\{" is not accepted; expected a JSON object/,
    ],
    [
      { CONSOLE_TOKEN: "a" },
      /^configuration: CONSOLE_TOKEN \(a secret of 1 character\) is not accepted; expected at least 16/,
    ],
    [{ CLOCK: "fast" }, /^configuration: CLOCK="fast" is not accepted; expected "system" or "simulated"/],
    [{ REQUEST_TIMEOUT_MS: "soon" }, /^configuration: REQUEST_TIMEOUT_MS="soon" is not accepted/],
    [{ PUBLIC_URL: "api.example.sa" }, /^configuration: PUBLIC_URL="api.example.sa" is not accepted; expected an http/],
    [{ WEBHOOK_ALLOW_PRIVATE: "maybe" }, /^configuration: WEBHOOK_ALLOW_PRIVATE="maybe" is not accepted/],
    [{ BUN_SERVER: "uws" }, /^configuration: BUN_SERVER="uws" is not accepted; expected "node" or "serve"/],
    [
      { EMAIL_INBOUND_SMTP_PORT: "smtp" },
      /^configuration: EMAIL_INBOUND_SMTP_PORT="smtp" is not accepted; expected an integer from 0 to 65535 \(0: any free port; unset: off\)/,
    ],
    [{ EMAIL_INBOUND_SMTP_PORT: "65536" }, /^configuration: EMAIL_INBOUND_SMTP_PORT="65536" is not accepted/],
  ])("%j", async (env, line) => {
    const text = await refusal(env)
    expect(text).toMatch(line)
    expect(text).not.toContain("\n")
  })

  it("a secret is never printed, only its length", async () => {
    const text = await refusal({ CONSOLE_TOKEN: "short-secret" })
    expect(text).not.toContain("short-secret")
    expect(text).toContain("12 characters")
  })

  it("the defaults, and a console token of the minimum length", async () => {
    const r = await read({ CONSOLE_TOKEN: "x".repeat(consoleTokenMinLength) })
    expect(Either.isRight(r)).toBe(true)
    const s = Either.getOrThrow(r)
    expect(s).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      pgliteDir: ".data/pglite",
      store: "sql",
      smsProvider: "simulator",
      consoleTokenGenerated: false,
      requestTimeoutMs: 30_000,
      webhookAllowPrivate: true,
    })
    expect(s.publicUrl).toBeUndefined()
    // EMAIL_INBOUND_SMTP_PORT: unset is off, 0 any free port, else the port.
    expect(s.emailInboundSmtpPort).toBeUndefined()
    expect(Either.getOrThrow(await read({ EMAIL_INBOUND_SMTP_PORT: "0" })).emailInboundSmtpPort).toBe(0)
    expect(Either.getOrThrow(await read({ EMAIL_INBOUND_SMTP_PORT: " 2525 " })).emailInboundSmtpPort).toBe(2525)
    expect(Either.getOrThrow(await read({ EMAIL_INBOUND_SMTP_PORT: "" })).emailInboundSmtpPort).toBeUndefined()
    const generated = Either.getOrThrow(await read({}))
    expect(generated.consoleTokenGenerated).toBe(true)
    expect(generated.consoleToken.length).toBeGreaterThanOrEqual(consoleTokenMinLength)
    expect(Either.getOrThrow(await read({ PUBLIC_URL: "https://api.example.sa/" })).publicUrl).toBe(
      "https://api.example.sa",
    )
  })
})

describe("the store's preconditions are checked before it opens", () => {
  const base = async (env: Record<string, string>) => Either.getOrThrow(await read(env))

  it("PGLITE_DIR=/proc/nope is refused at once (it hung: Node's recursive mkdir never returns there)", async () => {
    const started = Date.now()
    const r = await Effect.runPromise(Effect.either(preflight(await base({ PGLITE_DIR: "/proc/nope" }))))
    expect(Either.isLeft(r) && r.left.oneLine).toMatch(/^configuration: PGLITE_DIR="\/proc\/nope" is not accepted/)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it("a DATABASE_URL nobody answers is refused after DATABASE_WAIT_MS, its password masked", async () => {
    const settings = await base({ DATABASE_URL: "postgres://u:hunter2@127.0.0.1:1/x", DATABASE_WAIT_MS: "1200" })
    const started = Date.now()
    const r = await Effect.runPromise(Effect.either(preflight(settings)))
    const waited = Date.now() - started
    expect(Either.isLeft(r) && r.left.oneLine).toMatch(
      /^configuration: DATABASE_URL="postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x" is not accepted; expected a PostgreSQL that answers within DATABASE_WAIT_MS \(1200 ms\); it said: .*ECONNREFUSED/,
    )
    expect(waited).toBeGreaterThanOrEqual(1_200)
    expect(waited).toBeLessThan(5_000)
  })
})

describe("docs/configuration.md lists every variable the server reads", () => {
  it("each of the table's and the providers' variables has a row", () => {
    const doc = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8")
    const missing = variables().map((v) => v.env).filter((env) => !doc.includes(`| \`${env}\``))
    expect(missing).toEqual([])
  })

  it("no code outside adapters/config.ts reads the environment itself", () => {
    const hosts = ["hosts/node.ts", "hosts/bun.ts", "hosts/deno.ts", "hosts/start.ts"]
    for (const file of hosts) {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), "utf8")
      expect(text, file).not.toMatch(/process\.env|Deno\.env/)
    }
  })
})
