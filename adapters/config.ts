/** The standalone server's settings (DECISIONS 1), read once at the edge. */
import { Config, Context, Effect, Option } from "effect"
import { Email as EmailLimits } from "../core/limits.ts"

export interface Settings {
  /** The port to listen on; 0 takes any free one (the banner prints the one bound). */
  readonly port: number
  /** The listening address (`0.0.0.0`: every IPv4 interface). */
  readonly host: string
  readonly databaseUrl: Option.Option<string>
  readonly pgliteDir: string
  /** `memory` keeps everything in this process (tests and benchmarks); default: the SQL store. */
  readonly store: "sql" | "memory"
  readonly consoleToken: string
  /** True when CONSOLE_TOKEN was not given and one was generated. */
  readonly consoleTokenGenerated: boolean
  readonly smsProvider: string
  readonly chatProvider: string
  readonly emailProvider: string
  /** Where sender domains' DNS records are read (`DNS_PROVIDER`: `simulator`, the default, or `system`). */
  readonly dnsProvider: string
  /** Domains no sender may claim, nor any name below them (`PLATFORM_DOMAINS`, default `svc.sa`; DECISIONS 8.2). */
  readonly platformDomains: ReadonlyArray<string>
  /** The payment provider of top-up links and auto top-ups (`PAYMENT_PROVIDER`, default `simulator`). */
  readonly paymentProvider: string
  readonly clock: "system" | "simulated"
  /** Webhook endpoints may be loopback or private addresses (default: while the simulators are selected). */
  readonly webhookAllowPrivate: boolean
  /**
   * Proxies whose `X-Forwarded-For` is believed (addresses and CIDR ranges), as Express's `trust proxy`: the
   * caller is the first untrusted address walking the chain from the socket's peer. Empty (the default):
   * the caller is the socket's peer and the header is never read.
   */
  readonly trustedProxies: ReadonlyArray<string>
  /** Origins a browser may call the API from (CORS); `*` for any. Empty (the default): CORS is off. */
  readonly allowedOrigins: ReadonlyArray<string>
  /**
   * `{base_url}` as people reach it (`PUBLIC_URL`, e.g. `https://api.example.sa`): links to the console in
   * answers (`human_action.url`) are under it. Unset: `http://` and the request's Host.
   */
  readonly publicUrl?: string
}

export class PlatformConfig extends Context.Tag("adapters/PlatformConfig")<PlatformConfig, Settings>() {}

const randomToken = () => {
  const bytes = new Uint8Array(24)
  globalThis.crypto.getRandomValues(bytes)
  return "console_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}

/** A port, 0 included (any free port), unlike `Config.port`. */
const listenPort = Config.integer("PORT").pipe(
  Config.validate({ message: "Expected a port from 0 to 65535", validation: (n) => n >= 0 && n <= 65535 }),
)

/** A comma-separated list; unset or empty is none. */
const list = (name: string) =>
  Config.withDefault(Config.string(name), "").pipe(
    Config.map((s) => s.split(",").map((x) => x.trim()).filter((x) => x !== "")),
  )

export const settingsFromEnv: Effect.Effect<Settings, import("effect/ConfigError").ConfigError> = Effect.gen(
  function* () {
    const token = yield* Config.option(Config.string("CONSOLE_TOKEN"))
    const smsProvider = yield* Config.withDefault(Config.string("SMS_PROVIDER"), "simulator")
    const chatProvider = yield* Config.withDefault(Config.string("CHAT_PROVIDER"), "simulator")
    const emailProvider = yield* Config.withDefault(Config.string("EMAIL_PROVIDER"), "simulator")
    const paymentProvider = yield* Config.withDefault(Config.string("PAYMENT_PROVIDER"), "simulator")
    const dnsProvider = yield* Config.withDefault(Config.string("DNS_PROVIDER"), "simulator")
    const platformDomains = (yield* list("PLATFORM_DOMAINS")).map((d) => d.toLowerCase().replace(/\.$/, ""))
    const clock = yield* Config.withDefault(Config.literal("system", "simulated")("CLOCK"), "system")
    const simulators = smsProvider === "simulator"
    return {
      port: yield* Config.withDefault(listenPort, 8080),
      host: yield* Config.withDefault(Config.nonEmptyString("HOST"), "0.0.0.0"),
      databaseUrl: Option.filter(yield* Config.option(Config.string("DATABASE_URL")), (s) => s.trim() !== ""),
      pgliteDir: yield* Config.withDefault(Config.string("PGLITE_DIR"), ".data/pglite"),
      store: yield* Config.withDefault(Config.literal("sql", "memory")("STORE"), "sql"),
      consoleToken: Option.getOrElse(Option.filter(token, (t) => t !== ""), randomToken),
      consoleTokenGenerated: Option.isNone(Option.filter(token, (t) => t !== "")),
      smsProvider,
      chatProvider,
      emailProvider,
      dnsProvider,
      platformDomains: platformDomains.length === 0 ? EmailLimits.platformDomains : platformDomains,
      paymentProvider,
      clock,
      webhookAllowPrivate: yield* Config.withDefault(Config.boolean("WEBHOOK_ALLOW_PRIVATE"), simulators),
      trustedProxies: yield* list("TRUSTED_PROXIES"),
      allowedOrigins: yield* list("ALLOWED_ORIGINS"),
      publicUrl: Option.getOrUndefined(
        Option.map(
          Option.filter(yield* Config.option(Config.string("PUBLIC_URL")), (s) => s.trim() !== ""),
          (s) => s.trim().replace(/\/+$/, ""),
        ),
      ),
    }
  },
)
