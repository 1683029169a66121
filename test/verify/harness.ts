/**
 * Verify's use cases on the memory store, for `it.effect` tests on the TestClock: the layers of
 * adapters/platform.ts (memory store, node-crypto secrets, SMS simulator, Verify, Console), plus a
 * switch that makes the simulated network refuse every text (to refuse a resend).
 */
import { VerifyConsole } from "../../core/verify/console.ts"
import { WalletConsole } from "../../core/wallet/console.ts"
import { it } from "@effect/vitest"
import { Context, Effect, Either, Layer, Option, type TestServices } from "effect"
import type { YieldWrap } from "effect/Utils"
import { SmsGatewaySimulator } from "../../adapters/sms/simulator.ts"
import type { Settings } from "../../adapters/config.ts"
import { portsLayer } from "../../adapters/platform.ts"
import { memoryStoreOf, selectedProducts, servicesOf } from "../../adapters/products.ts"
import { PgStoreLive } from "../../adapters/sql/store.ts"
import { freshPgStore } from "../store/fixtures.ts"
import { WarmPgliteStore } from "../support/warm-pglite.ts"
import { Console } from "../../core/console/service.ts"
import { authorize, type KeyPrincipal } from "../../core/pipeline/authenticate.ts"
import type { ApiRequest } from "../../core/pipeline/request.ts"
import type { AccountId, ApplicationId, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import { parseSaudiMobile } from "../../core/shared/phone.ts"
import { parseStart } from "../../core/verify/requests.ts"
import { Verify } from "../../core/verify/service.ts"
import { SmsGateway, SmsRefused } from "../../ports/sms.ts"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { type OutboxEvent, OutboxRepo } from "../../ports/store/outbox.ts"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { VerificationsRepo } from "../../ports/store/verify.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"

/** While `refusing`, the simulated network refuses every text (as it always refuses `+966500000001`). */
export class NetworkSwitch extends Context.Tag("test/NetworkSwitch")<NetworkSwitch, { refusing: boolean }>() {}

const SwitchableSms = Layer.effect(
  SmsGateway,
  Effect.gen(function* () {
    const network = yield* NetworkSwitch
    const simulator = yield* SmsGateway
    return {
      send: (sms) =>
        network.refusing
          ? Effect.fail(new SmsRefused({ providerCode: "switched_off", message: "The test switched the network off." }))
          : simulator.send(sms),
    }
  }),
).pipe(Layer.provide(SmsGatewaySimulator))

/** The settings the test layer's platform reads (memory store, simulators, the TestClock's time). */
export const testSettings: Settings = {
  port: 0,
  host: "127.0.0.1",
  databaseUrl: Option.none(),
  pgliteDir: "memory://",
  store: "memory",
  consoleToken: "test-console-token",
  consoleTokenGenerated: false,
  smsProvider: "simulator",
  chatProvider: "simulator",
  emailProvider: "simulator",
  dnsProvider: "simulator",
  platformDomains: ["svc.sa"],
  paymentProvider: "simulator",
  requestTimeoutMs: 30_000,
  databaseWaitMs: 0,
  bunServer: "node",
  memoryLogMs: 0,
  clock: "system",
  webhookAllowPrivate: true,
  trustedProxies: [],
  allowedOrigins: [],
}

/**
 * A fresh platform (empty memory store) each time it is provided: the products list folded as the platform
 * folds it (adapters/products.ts), over the memory store and a switchable SMS simulator. The SQL store instead:
 * PGlite in memory (the file's warm instance, reset to the migrated empty store: test/support/warm-pglite.ts), or
 * PostgreSQL at a URL on a store of its own (cloned from the test command's template, dropped with the layer).
 */
export const VerifyTestLayer = (store: "memory" | "pglite" | { readonly postgres: string } = "memory") => {
  const list = selectedProducts(testSettings)
  const sms = Layer.provideMerge(SwitchableSms, Layer.sync(NetworkSwitch, () => ({ refusing: false })))
  const storeLayer = store === "memory"
    ? memoryStoreOf(list)
    : store === "pglite"
    ? WarmPgliteStore(list)
    : freshPgStore(store.postgres, (url) => PgStoreLive(url, list), list)
  return servicesOf(list, testSettings, portsLayer(testSettings, storeLayer, sms))
}

/** What a test body may use: the platform's services and the TestClock's. */
type PlatformServices = Layer.Layer.Success<ReturnType<typeof VerifyTestLayer>> | TestServices.TestServices

/**
 * `it.effect` on a platform of its own (a fresh `VerifyTestLayer`, so an empty memory store), on the
 * TestClock: `body` is the body of an `Effect.gen`.
 */
export const platformTest = (
  name: string,
  body: () => Generator<YieldWrap<Effect.Effect<any, any, PlatformServices>>, unknown, never>,
  timeout?: number,
) => {
  it.effect(name, () => Effect.provide(Effect.gen(body), VerifyTestLayer()), timeout)
  // The same rule on the SQL store (PGlite in memory): its statements, counters and locks, not the memory twin.
  it.effect(`${name} (on PGlite)`, () => Effect.provide(Effect.gen(body), VerifyTestLayer("pglite")), timeout ?? 60_000)
}

export const RefusedNumber = "+966500000001"

/** The destination of a test that needs just one. */
export const to = "+966551234567"

/** Distinct valid Saudi mobiles. */
export const mobile = (i: number) => `+9665510${String(i).padStart(5, "0")}`

const fakeRequest = (key: string, body: Record<string, unknown>): ApiRequest => ({
  method: "POST",
  path: "/v1/verify/start",
  query: new URLSearchParams(),
  header: (name) => (name === "authorization" ? `Bearer ${key}` : undefined),
  body: JSON.stringify(body),
  json: () => body,
  ip: "127.0.0.1",
  requestId: "test",
})

/** Runs the order of checks' steps 1 to 3 for a key, as the route table does. */
export const principalOf = (key: string, body: Record<string, unknown> = {}) =>
  Effect.flatMap(
    authorize(fakeRequest(key, body), { audience: "application_or_partner", scope: "verify:send" }),
    (p) => (p._tag === "Key" ? Effect.succeed(p) : Effect.dieMessage("not a key principal")),
  )

export interface SetupOptions {
  readonly balance?: number
  readonly mode?: "live" | "test"
  /** Console verify settings applied to the application. */
  readonly settings?: Record<string, unknown>
  /** Numbers put on the account's proven list. */
  readonly proven?: ReadonlyArray<string>
}

export interface Setup {
  readonly accountId: AccountId
  readonly applicationId: ApplicationId
  readonly key: string
  readonly p: KeyPrincipal
}

/** An account with an approved application, a funded wallet and one key, made through the console. */
export const setup = (opts: SetupOptions = {}) =>
  Effect.gen(function* () {
    const c = yield* Console
    const account = yield* c.createAccount({ name: "Merchant" })
    const app = yield* c.createApplication(account.id, { name: "Shop", approved: true })
    const balance = opts.balance ?? 10_000
    if (balance > 0) yield* (yield* WalletConsole).creditWallet(account.id, { amount_halalas: balance })
    const key = yield* c.createKey(app.id, { mode: opts.mode ?? "live" })
    if (opts.settings) yield* (yield* VerifyConsole).putVerifySettings(app.id, opts.settings)
    for (const to of opts.proven ?? []) yield* (yield* VerifyConsole).addSandboxDestination(account.id, { to })
    const p = yield* principalOf(key.key)
    return {
      accountId: account.id as AccountId,
      applicationId: app.id as ApplicationId,
      key: key.key,
      p,
    } satisfies Setup
  }).pipe(Effect.orDie)

/** `POST /v1/verify/start` through the use case, the body parsed as the edge parses it. */
export const start = (p: KeyPrincipal, to: string, opts: { client_ip?: string; reference?: string } = {}) =>
  Effect.gen(function* () {
    const input = parseStart({ to, ...opts })
    if (Either.isLeft(input)) return yield* Effect.dieMessage(`bad start body: ${input.left._tag}`)
    return yield* (yield* Verify).start(p, input.right)
  })

export const check = (p: KeyPrincipal, id: string, code: string) =>
  Effect.flatMap(Verify, (v) => v.check(p, { id, code }))
export const resend = (p: KeyPrincipal, id: string) => Effect.flatMap(Verify, (v) => v.resend(p, id))
export const cancel = (p: KeyPrincipal, id: string) => Effect.flatMap(Verify, (v) => v.cancel(p, id))
export const read = (p: KeyPrincipal, id: string) => Effect.flatMap(Verify, (v) => v.read(p, id))

const saudiMobile = (to: string): SaudiMobile => Option.getOrThrow(parseSaudiMobile(to))

/** Every text the simulator logged to `to`, newest first. */
export const textsTo = (to: string) => Effect.flatMap(SimulatedSmsRepo, (log) => log.listTo(saudiMobile(to), 1000))

/** The code of the latest text to `to`: its one standalone run of digits. */
export const latestCode = (to: string) =>
  Effect.map(textsTo(to), (texts) => {
    if (texts.length === 0) throw new Error(`no text to ${to}`)
    return /\b\d{4,8}\b/.exec(texts[0].text)![0]
  })

/** A code that is not `code` (same length). */
export const wrongCode = (code: string) => code.split("").map((d) => String((Number(d) + 1) % 10)).join("")

/** Every outbox event, oldest first. */
export const allEvents = Effect.map(
  Effect.flatMap(OutboxRepo, (o) => o.listRecent(100_000)),
  (events): ReadonlyArray<OutboxEvent> => events.slice().reverse(),
)

/** The events of one verification, oldest first. */
export const eventsOf = (verificationId: string) =>
  Effect.map(allEvents, (events) => events.filter((e) => e.data.id === verificationId))

export const eventNamesOf = (verificationId: string) =>
  Effect.map(eventsOf(verificationId), (es) => es.map((e) => e.event))

export const balanceOf = (accountId: AccountId) => Effect.flatMap(WalletRepo, (w) => w.balance(accountId))

/** Credits, charges and refunds of the account over its whole history. */
export const ledgerOf = (accountId: AccountId) => Effect.flatMap(WalletRepo, (w) => w.summary(accountId, 0))

export const storedVerification = (id: string) => Effect.flatMap(VerificationsRepo, (r) => r.get(id as VerificationId))

export const applicationOf = (id: ApplicationId) =>
  Effect.map(Effect.flatMap(ApplicationsRepo, (r) => r.get(id)), Option.getOrThrow)

export const setNetwork = (refusing: boolean) => Effect.map(NetworkSwitch, (n) => (n.refusing = refusing))

export const minutes = (n: number) => n * 60_000
