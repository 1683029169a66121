/**
 * The standalone server's settings (DECISIONS 1), every one read here through Effect's `Config` and checked
 * before anything opens: `settingsTable` holds one entry per variable (adding a setting is adding an entry),
 * `providerSettings` what a selected provider needs. A refused value is one `SettingRefused` naming the
 * variable, what was given and what is accepted (the hosts print its `oneLine` and exit 2).
 * docs/configuration.md lists them all (test/config/table.test.ts holds it to this file).
 */
import { Config, ConfigError, Context, Data, Effect, Either, Option, Schema } from "effect"
import { ApplicationId } from "../core/shared/brands.ts"
import type { CloudApiConfig, CloudApiNumber } from "./chat/cloud-api.ts"
import type { UnifonicConfig } from "./sms/unifonic.ts"
import { Email as EmailLimits } from "../core/limits.ts"
import { smtpSettingsFromEnv } from "./email/smtp.ts"
import { LiveStoresConfigFromEnv } from "./stores/live.ts"
import { SALLA_DEFAULT_API_URL } from "./stores/salla.ts"
import { ZID_DEFAULT_API_URL } from "./stores/zid.ts"

import { defaultLogLevel, type LogLevelName, logLevels } from "./logging.ts"

/** A setting the environment gives a value that is not accepted (or a required one it does not give). */
export class SettingRefused extends Data.TaggedError("SettingRefused")<{
  readonly variable: string
  /** The value given; undefined when the variable is not set. */
  readonly given: string | undefined
  readonly accepts: string
  /** A secret's value is never printed, only its length. */
  readonly secret?: boolean
}> {
  /** The one line a host prints before it exits with code 2. */
  // Not `line`: JavaScriptCore (Bun) gives every Error an own `line` property (its source line), which hides a getter.
  get oneLine(): string {
    return `configuration: ${this.shown()}; expected ${this.accepts}`
  }
  private shown(): string {
    const given = this.given
    if (given === undefined) return `${this.variable} is not set`
    if (this.secret) {
      return `${this.variable} (a secret of ${given.length} character${given.length === 1 ? "" : "s"}) is not accepted`
    }
    const cut = given.length > 80 ? given.slice(0, 80) + "…" : given
    return `${this.variable}=${JSON.stringify(cut)} is not accepted`
  }
  override get message(): string {
    return this.oneLine
  }
}

/** One setting: its variable, how it is read, and what it accepts (the error line and the docs say it). */
export interface Entry<A> {
  readonly env: string
  readonly accepts: string
  /** The default as docs/configuration.md shows it ("unset" when there is none). */
  readonly default: string
  readonly secret?: boolean
  readonly config: Config.Config<A>
}
const entry = <A>(e: Entry<A>): Entry<A> => e

/** A comma-separated list; unset or empty is none. */
const list = (name: string) =>
  Config.withDefault(Config.string(name), "").pipe(
    Config.map((s) => s.split(",").map((x) => x.trim()).filter((x) => x !== "")),
  )

/** An optional string; empty is unset. */
const optional = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((s) => s.trim() !== "")))

const checked = <A, B>(config: Config.Config<A>, check: (a: A) => B | undefined) =>
  Config.mapOrFail(config, (a) => {
    const b = check(a)
    return b === undefined ? Either.left(ConfigError.InvalidData([], "refused")) : Either.right(b)
  })

const integerIn = (name: string, min: number, max: number, fallback: number) =>
  checked(
    Config.withDefault(Config.string(name), String(fallback)),
    (s) => (/^\d+$/.test(s.trim()) && +s >= min && +s <= max ? +s : undefined),
  )

const oneOf = <const L extends ReadonlyArray<string>>(name: string, values: L, fallback: L[number]) =>
  checked(
    Config.withDefault(Config.string(name), fallback),
    (s) => (values.includes(s) ? s as L[number] : undefined),
  )

const postgresUrl = (s: string): string | undefined => {
  try {
    const url = new URL(s)
    const socket = url.searchParams.get("host")
    return (url.protocol === "postgres:" || url.protocol === "postgresql:") && (url.hostname !== "" || socket)
      ? s
      : undefined
  } catch {
    return undefined
  }
}

const httpUrl = (s: string): string | undefined => {
  try {
    const url = new URL(s)
    return url.protocol === "http:" || url.protocol === "https:" ? s.replace(/\/+$/, "") : undefined
  } catch {
    return undefined
  }
}

/** The shortest console token accepted: it is the operator's password for `/console/v1`. */
export const consoleTokenMinLength = 16

export const smsProviders = ["simulator", "unifonic"] as const
export const chatProviders = ["simulator", "whatsapp_cloud"] as const
export const emailProviders = ["simulator", "smtp"] as const
export const dnsProviders = ["simulator", "system"] as const
export const paymentProviders = ["simulator"] as const
export const storeProviders = ["simulator", "live"] as const
const quoted = (values: ReadonlyArray<string>) => values.map((v) => `"${v}"`).join(" or ")

/** Every setting of the standalone server, one entry each. */
export const settingsTable = {
  port: entry({
    env: "PORT",
    accepts: "an integer from 0 to 65535 (0: any free port)",
    default: "8080",
    config: integerIn("PORT", 0, 65535, 8080),
  }),
  host: entry({
    env: "HOST",
    accepts: "an address to listen on (0.0.0.0: every IPv4 interface)",
    default: "0.0.0.0",
    config: Config.withDefault(Config.nonEmptyString("HOST"), "0.0.0.0"),
  }),
  databaseUrl: entry({
    env: "DATABASE_URL",
    accepts: "a postgres:// or postgresql:// URL with a host (unset: the embedded PGlite store)",
    default: "unset",
    config: checked(
      optional("DATABASE_URL"),
      (o) => (Option.isNone(o) ? o : postgresUrl(o.value.trim()) ? Option.some(o.value.trim()) : undefined),
    ),
  }),
  pgliteDir: entry({
    env: "PGLITE_DIR",
    accepts: "a directory the server may create and write, or memory://",
    default: ".data/pglite",
    config: Config.withDefault(Config.string("PGLITE_DIR"), ".data/pglite"),
  }),
  store: entry({
    env: "STORE",
    accepts: `"sql" or "memory" (memory: nothing kept, for tests and benchmarks)`,
    default: "sql",
    config: oneOf("STORE", ["sql", "memory"], "sql"),
  }),
  consoleToken: entry({
    env: "CONSOLE_TOKEN",
    accepts: `at least ${consoleTokenMinLength} characters (unset: one is generated and printed)`,
    default: "generated",
    secret: true,
    config: checked(
      optional("CONSOLE_TOKEN"),
      (o) => (Option.isSome(o) && o.value.length < consoleTokenMinLength ? undefined : o),
    ),
  }),
  smsProvider: entry({
    env: "SMS_PROVIDER",
    accepts: quoted(smsProviders),
    default: "simulator",
    config: oneOf("SMS_PROVIDER", smsProviders, "simulator"),
  }),
  chatProvider: entry({
    env: "CHAT_PROVIDER",
    accepts: quoted(chatProviders),
    default: "simulator",
    config: oneOf("CHAT_PROVIDER", chatProviders, "simulator"),
  }),
  emailProvider: entry({
    env: "EMAIL_PROVIDER",
    accepts: quoted(emailProviders),
    default: "simulator",
    config: oneOf("EMAIL_PROVIDER", emailProviders, "simulator"),
  }),
  dnsProvider: entry({
    env: "DNS_PROVIDER",
    accepts: `${quoted(dnsProviders)} (where sender domains' DNS records are read)`,
    default: "simulator",
    config: oneOf("DNS_PROVIDER", dnsProviders, "simulator"),
  }),
  storeProvider: entry({
    env: "STORE_PROVIDER",
    accepts: `${quoted(storeProviders)} (where connected online stores are read: Salla and Zid)`,
    default: "simulator",
    config: oneOf("STORE_PROVIDER", storeProviders, "simulator"),
  }),
  platformDomains: entry({
    env: "PLATFORM_DOMAINS",
    accepts: "a comma-separated list of domains no sender may claim, nor any name below them (DECISIONS 8.2)",
    default: EmailLimits.platformDomains.join(","),
    config: Config.map(
      list("PLATFORM_DOMAINS"),
      (domains): ReadonlyArray<string> => {
        const read = domains.map((d) => d.toLowerCase().replace(/\.$/, ""))
        return read.length === 0 ? EmailLimits.platformDomains : read
      },
    ),
  }),
  emailInboundSmtpPort: entry({
    env: "EMAIL_INBOUND_SMTP_PORT",
    accepts:
      "an integer from 0 to 65535 (0: any free port; unset: off): where bounces and complaints are received by SMTP",
    default: "unset (off)",
    config: checked(
      optional("EMAIL_INBOUND_SMTP_PORT"),
      (o) => {
        if (Option.isNone(o)) return Option.none<number>()
        const s = o.value.trim()
        return /^\d+$/.test(s) && +s <= 65535 ? Option.some(+s) : undefined
      },
    ),
  }),
  paymentProvider: entry({
    env: "PAYMENT_PROVIDER",
    accepts: quoted(paymentProviders),
    default: "simulator",
    config: oneOf("PAYMENT_PROVIDER", paymentProviders, "simulator"),
  }),
  clock: entry({
    env: "CLOCK",
    accepts: `"system" or "simulated" (moved only through the console)`,
    default: "system",
    config: oneOf("CLOCK", ["system", "simulated"], "system"),
  }),
  webhookAllowPrivate: entry({
    env: "WEBHOOK_ALLOW_PRIVATE",
    accepts: `"true" or "false" (webhook endpoints on loopback or private addresses)`,
    default: "true while SMS_PROVIDER=simulator",
    config: Config.option(Config.boolean("WEBHOOK_ALLOW_PRIVATE")),
  }),
  trustedProxies: entry({
    env: "TRUSTED_PROXIES",
    accepts: "a comma-separated list of addresses and CIDR ranges whose X-Forwarded-For is believed",
    default: "none",
    config: list("TRUSTED_PROXIES"),
  }),
  allowedOrigins: entry({
    env: "ALLOWED_ORIGINS",
    accepts: "a comma-separated list of origins a browser may call from (CORS), or *",
    default: "none (CORS off)",
    config: list("ALLOWED_ORIGINS"),
  }),
  publicUrl: entry({
    env: "PUBLIC_URL",
    accepts: "an http:// or https:// URL people reach the server at (links to the console are under it)",
    default: "http:// and the request's Host",
    config: checked(
      optional("PUBLIC_URL"),
      (o) => {
        if (Option.isNone(o)) return o
        const url = httpUrl(o.value.trim())
        return url === undefined ? undefined : Option.some(url)
      },
    ),
  }),
  requestTimeoutMs: entry({
    env: "REQUEST_TIMEOUT_MS",
    accepts: "an integer of milliseconds from 100 to 3600000: the longest a request's head and body may take to arrive",
    default: "30000",
    config: integerIn("REQUEST_TIMEOUT_MS", 100, 3_600_000, 30_000),
  }),
  databaseWaitMs: entry({
    env: "DATABASE_WAIT_MS",
    accepts: "an integer of milliseconds from 0 to 600000: how long the start waits for PostgreSQL to answer",
    default: "10000",
    config: integerIn("DATABASE_WAIT_MS", 0, 600_000, 10_000),
  }),
  bunServer: entry({
    env: "BUN_SERVER",
    accepts: `"node" or "serve" (the Bun host's server: node:http, or Bun.serve over the web handler)`,
    default: "node",
    config: oneOf("BUN_SERVER", ["node", "serve"], "node"),
  }),
  logLevel: entry({
    env: "LOG_LEVEL",
    accepts: `${quoted(logLevels)} (the least severe level logged; none: no logs)`,
    default: defaultLogLevel,
    config: oneOf("LOG_LEVEL", logLevels, defaultLogLevel),
  }),
  memoryLogMs: entry({
    env: "MEMORY_LOG_MS",
    accepts:
      "an integer of milliseconds from 0 to 86400000 (0: off): the Node host prints its memory on stderr this often",
    default: "0",
    config: integerIn("MEMORY_LOG_MS", 0, 86_400_000, 0),
  }),
  otelEndpoint: entry({
    env: "OTEL_EXPORTER_OTLP_ENDPOINT",
    accepts: "an http:// or https:// URL of an OTLP/HTTP collector (spans and metrics go to /v1/traces, /v1/metrics)",
    default: "unset (no export)",
    config: checked(
      optional("OTEL_EXPORTER_OTLP_ENDPOINT"),
      (o) => {
        if (Option.isNone(o)) return o
        const url = httpUrl(o.value.trim())
        return url === undefined ? undefined : Option.some(url)
      },
    ),
  }),
  otelServiceName: entry({
    env: "OTEL_SERVICE_NAME",
    accepts: "the service name the exported spans and metrics carry",
    default: "sa-messaging",
    config: Config.withDefault(Config.nonEmptyString("OTEL_SERVICE_NAME"), "sa-messaging"),
  }),
  metrics: entry({
    env: "METRICS",
    accepts: `"off" or "prometheus" (GET /metrics in the Prometheus text format)`,
    default: "off",
    config: oneOf("METRICS", ["off", "prometheus"], "off"),
  }),
}

export const UNIFONIC_DEFAULT_BASE_URL = "https://el.cloud.unifonic.com"
export const CLOUD_API_DEFAULT_GRAPH_URL = "https://graph.facebook.com/v21.0"

/** Environment configuration of `SMS_PROVIDER=unifonic`: UNIFONIC_APP_SID (secret), UNIFONIC_SENDER_ID, UNIFONIC_BASE_URL. */
export const UnifonicConfigFromEnv: Config.Config<UnifonicConfig> = Config.all({
  appSid: Config.redacted("UNIFONIC_APP_SID"),
  senderId: Config.string("UNIFONIC_SENDER_ID"),
  baseUrl: Config.string("UNIFONIC_BASE_URL").pipe(Config.withDefault(UNIFONIC_DEFAULT_BASE_URL)),
})

const NumbersJson = Schema.parseJson(
  Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ phone_number_id: Schema.String, waba_id: Schema.String }),
  }),
)

/** `WHATSAPP_NUMBERS`: `{ "<application id>": { "phone_number_id": "…", "waba_id": "…" } }`. */
const numbersConfig: Config.Config<Readonly<Record<string, CloudApiNumber>>> = Config.string("WHATSAPP_NUMBERS").pipe(
  Config.withDefault("{}"),
  Config.mapOrFail((text) =>
    Either.flatMap(
      Either.mapLeft(
        Schema.decodeUnknownEither(NumbersJson)(text),
        () => ConfigError.InvalidData([], "WHATSAPP_NUMBERS: expected a JSON object of { phone_number_id, waba_id }"),
      ),
      (record) => {
        const bad = Object.keys(record).find((app) => !Schema.is(ApplicationId)(app))
        return bad !== undefined
          ? Either.left(ConfigError.InvalidData([], `WHATSAPP_NUMBERS: ${bad} is not an application id`))
          : Either.right(Object.fromEntries(
            Object.entries(record).map(([app, n]) => [app, { phoneNumberId: n.phone_number_id, wabaId: n.waba_id }]),
          ))
      },
    )
  ),
)

/** Environment configuration of `CHAT_PROVIDER=whatsapp_cloud`. */
export const CloudApiConfigFromEnv: Config.Config<CloudApiConfig> = Config.all({
  accessToken: Config.redacted("WHATSAPP_ACCESS_TOKEN"),
  appSecret: Config.redacted("WHATSAPP_APP_SECRET"),
  verifyToken: Config.redacted("WHATSAPP_VERIFY_TOKEN"),
  graphUrl: Config.string("WHATSAPP_GRAPH_URL").pipe(Config.withDefault(CLOUD_API_DEFAULT_GRAPH_URL)),
  numbers: numbersConfig,
})

/** What a provider needs once selected: its settings, each variable with what it accepts. */
interface ProviderNeeds {
  readonly config: Config.Config<unknown>
  readonly variables: Readonly<Record<string, { readonly accepts: string; readonly secret?: boolean }>>
}

/** The settings of each provider that needs some, by the selecting variable and value. */
export const providerSettings: Readonly<Record<string, Readonly<Record<string, ProviderNeeds>>>> = {
  SMS_PROVIDER: {
    unifonic: {
      config: UnifonicConfigFromEnv,
      variables: {
        UNIFONIC_APP_SID: { accepts: "the Unifonic application's AppSid", secret: true },
        UNIFONIC_SENDER_ID: { accepts: "the registered sender name" },
        UNIFONIC_BASE_URL: { accepts: `an https URL (default ${UNIFONIC_DEFAULT_BASE_URL})` },
      },
    },
  },
  EMAIL_PROVIDER: {
    smtp: {
      config: smtpSettingsFromEnv,
      variables: {
        SMTP_HOST: { accepts: "the SMTP relay's host name" },
        SMTP_PORT: { accepts: "a port from 1 to 65535 (default 587)" },
        SMTP_USER: { accepts: "the relay's user name (unset: no AUTH)" },
        SMTP_PASSWORD: { accepts: "the relay's password", secret: true },
        SMTP_TLS: {
          accepts: `"starttls" (default), "implicit" (port 465) or "starttls-unverified" (any certificate)`,
        },
      },
    },
  },
  STORE_PROVIDER: {
    live: {
      config: LiveStoresConfigFromEnv,
      variables: {
        SALLA_API_URL: { accepts: `an https URL (default ${SALLA_DEFAULT_API_URL})` },
        ZID_API_URL: { accepts: `an https URL (default ${ZID_DEFAULT_API_URL})` },
        ZID_AUTHORIZATION: {
          accepts: "the partner app's Authorization token from Zid (unset: Zid stores cannot be read)",
          secret: true,
        },
      },
    },
  },
  CHAT_PROVIDER: {
    whatsapp_cloud: {
      config: CloudApiConfigFromEnv,
      variables: {
        WHATSAPP_ACCESS_TOKEN: { accepts: "the Cloud API access token", secret: true },
        WHATSAPP_APP_SECRET: { accepts: "the Meta app's secret (it signs webhook deliveries)", secret: true },
        WHATSAPP_VERIFY_TOKEN: { accepts: "the webhook subscription's verify token", secret: true },
        WHATSAPP_GRAPH_URL: { accepts: `an https URL (default ${CLOUD_API_DEFAULT_GRAPH_URL})` },
        WHATSAPP_NUMBERS: {
          accepts: `a JSON object { "<application id>": { "phone_number_id", "waba_id" } } (default {})`,
        },
      },
    },
  },
}

type Table = typeof settingsTable
type Read = { readonly [K in keyof Table]: Config.Config.Success<Table[K]["config"]> }

type Providers = "smsProvider" | "chatProvider" | "emailProvider" | "dnsProvider" | "paymentProvider" | "storeProvider"
/** Telemetry's settings: optional, so an embedder's settings without them have it off. */
type TelemetrySettings = "otelEndpoint" | "otelServiceName" | "metrics"
/** Optional too: an embedder's settings without it have no inbound SMTP listener. */
type OptionalSettings = TelemetrySettings | "emailInboundSmtpPort"

export interface Settings
  extends Omit<Read, "webhookAllowPrivate" | "consoleToken" | "publicUrl" | "logLevel" | Providers | OptionalSettings> {
  /** A provider's name; the standalone server accepts the table's, an embedder's products may offer others. */
  readonly smsProvider: string
  readonly chatProvider: string
  readonly emailProvider: string
  readonly dnsProvider: string
  readonly paymentProvider: string
  /** Where connected online stores are read; unset (an embedder's settings) is the simulator. */
  readonly storeProvider?: string
  readonly consoleToken: string
  /** True when CONSOLE_TOKEN was not given and one was generated. */
  readonly consoleTokenGenerated: boolean
  /** Webhook endpoints may be loopback or private addresses (default: while the simulators are selected). */
  readonly webhookAllowPrivate: boolean
  /** `{base_url}` as people reach it, without a trailing slash; unset: `http://` and the request's Host. */
  readonly publicUrl?: string
  /** The least severe level logged (`LOG_LEVEL`); unset: `info`. */
  readonly logLevel?: LogLevelName
  /** OTLP/HTTP collector's base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`); unset: no export (adapters/telemetry). */
  readonly otelEndpoint?: string
  readonly otelServiceName?: string
  /** `"prometheus"`: `GET /metrics`; default off. */
  readonly metrics?: "off" | "prometheus"
  /**
   * The inbound SMTP listener's port for mail that comes back to the bounce domain (`EMAIL_INBOUND_SMTP_PORT`;
   * adapters/email/inbound-smtp.ts); 0: any free port; unset: no listener.
   */
  readonly emailInboundSmtpPort?: number
}

export class PlatformConfig extends Context.Tag("adapters/PlatformConfig")<PlatformConfig, Settings>() {}

const randomToken = () => {
  const bytes = new Uint8Array(24)
  globalThis.crypto.getRandomValues(bytes)
  return "console_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}

/** The raw text of a variable, for the error line. */
const given = (name: string) =>
  Effect.map(Effect.either(Config.option(Config.string(name))), (e) => Either.getOrElse(e, () => Option.none())).pipe(
    Effect.map(Option.getOrUndefined),
  )

/** The first variable a ConfigError names, and its message. */
const firstProblem = (e: ConfigError.ConfigError): { path: string | undefined; message: string } => {
  switch (e._op) {
    case "And":
    case "Or":
      return firstProblem(e.left)
    case "InvalidData":
    case "MissingData":
    case "SourceUnavailable":
    case "Unsupported":
      return { path: e.path.join("."), message: e.message }
  }
}

/** One setting of the table, checked. */
export const readEntry = <A>(e: Entry<A>): Effect.Effect<A, SettingRefused> =>
  Effect.catchAll(
    e.config,
    () =>
      Effect.flatMap(
        given(e.env),
        (value) => new SettingRefused({ variable: e.env, given: value, accepts: e.accepts, secret: e.secret }),
      ),
  )

const readProvider = (selector: string, value: string): Effect.Effect<void, SettingRefused> => {
  const needs = providerSettings[selector]?.[value]
  if (needs === undefined) return Effect.void
  return Effect.catchAll(Effect.asVoid(needs.config), (error) => {
    const problem = firstProblem(error)
    const named = Object.keys(needs.variables).find((v) => problem.path === v || problem.message.startsWith(v)) ??
      Object.keys(needs.variables)[0]
    const about = needs.variables[named]
    return Effect.flatMap(given(named), (raw) =>
      new SettingRefused({
        variable: named,
        given: raw,
        accepts: `${about.accepts} (${selector}=${value} needs it)`,
        secret: about.secret,
      }))
  })
}

/** Every setting, checked; the first refused one fails it. */
export const settingsFromEnv: Effect.Effect<Settings, SettingRefused> = Effect.gen(function* () {
  const read = {} as Record<string, unknown>
  for (const [key, e] of Object.entries(settingsTable) as Array<[string, Entry<unknown>]>) {
    read[key] = yield* readEntry(e)
  }
  const r = read as unknown as Read
  yield* readProvider("SMS_PROVIDER", r.smsProvider)
  yield* readProvider("CHAT_PROVIDER", r.chatProvider)
  yield* readProvider("EMAIL_PROVIDER", r.emailProvider)
  yield* readProvider("PAYMENT_PROVIDER", r.paymentProvider)
  yield* readProvider("STORE_PROVIDER", r.storeProvider)
  const { consoleToken, webhookAllowPrivate, publicUrl, otelEndpoint, emailInboundSmtpPort, ...rest } = r
  return {
    ...rest,
    ...(Option.isSome(emailInboundSmtpPort) ? { emailInboundSmtpPort: emailInboundSmtpPort.value } : {}),
    ...(Option.isSome(otelEndpoint) ? { otelEndpoint: otelEndpoint.value } : {}),
    consoleToken: Option.getOrElse(consoleToken, randomToken),
    consoleTokenGenerated: Option.isNone(consoleToken),
    webhookAllowPrivate: Option.getOrElse(webhookAllowPrivate, () => r.smsProvider === "simulator"),
    ...(Option.isSome(publicUrl) ? { publicUrl: publicUrl.value } : {}),
  }
})

/** Every variable the server reads, for the docs and `--help`: the table's, then the providers'. */
export const variables = (): ReadonlyArray<{ env: string; accepts: string; default: string }> => [
  ...Object.values(settingsTable as Record<string, Entry<unknown>>).map((e) => ({
    env: e.env,
    accepts: e.accepts,
    default: e.default,
  })),
  ...Object.entries(providerSettings).flatMap(([selector, byValue]) =>
    Object.entries(byValue).flatMap(([value, needs]) =>
      Object.entries(needs.variables).map(([env, v]) => ({
        env,
        accepts: `${v.accepts}; read when ${selector}=${value}`,
        default: "unset",
      }))
    )
  ),
]
