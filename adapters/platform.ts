/**
 * The composition root: the layers a host app composes, the route table, and the runtime every host
 * shares. `makePlatform` is what hosts and embedders call.
 */
import { Effect, Fiber, Layer, ManagedRuntime, Option, RuntimeFlags } from "effect"
import { Console } from "../core/console/service.ts"
import { Verify } from "../core/verify/service.ts"
import { SmsGatewayUnifonic } from "./sms/unifonic.ts"
import { SmsGatewaySimulator } from "./sms/simulator.ts"
import { simulatedClockLayer } from "./clock/simulated.ts"
import { PlatformConfig, type Settings } from "./config.ts"
import { simulatorRoutes } from "./http/console-routes.ts"
import { type Dispatch, makeDispatcher } from "./http/dispatcher.ts"
import type { Route } from "./http/operation.ts"
import { routesOf } from "./http/operation-routes.ts"
import { openApiDocument } from "../core/pipeline/openapi.ts"
import { verifyOperations } from "../core/verify/operations.ts"
import { accountOperations } from "../core/accounts/operations.ts"
import { consoleOperations } from "../core/console/operations.ts"
import { makeHttpApp } from "./http/http-app.ts"
import { type CallerAddress, directWebHandler, webHandler } from "./http/web.ts"
import { nodeHandler } from "./http/node.ts"
import { parseTrustedProxies } from "./http/edge.ts"
import { jobLoop, jobLoopOf, Jobs, JobsLive } from "./jobs.ts"
import { webhookRoutes } from "./http/webhook-routes.ts"
import { WebhookJob } from "./webhooks/job.ts"
import { FetchWebhookTransport } from "./webhooks/fetch-transport.ts"
import { WebhookSignerLive } from "./webhooks/signer.ts"
import { WebhookConsole } from "../core/webhooks/console.ts"
import { WebhookDispatcher } from "../core/webhooks/dispatcher.ts"
import { MemoryStore } from "./memory/store.ts"
import { MemoryPlatformSecret } from "./memory/platform-secret.ts"
import { SecretsLive } from "./secrets/node-crypto.ts"
import { SqlPlatformSecret } from "./sql/platform-secret.ts"
import { PgliteStoreLive, PgStoreLive } from "./sql/store.ts"
import { type Demo, reissueDemoKeys, seedDemo } from "./demo.ts"

/** Which store: PostgreSQL when `DATABASE_URL` is set, else PGlite at `PGLITE_DIR`; `memory` for tests and benchmarks. */
export const storeLayer = (settings: Settings) => {
  if (settings.store === "memory") return Layer.merge(MemoryStore, MemoryPlatformSecret)
  const sql = Option.match(settings.databaseUrl, {
    onSome: (url) => PgStoreLive(url),
    onNone: () => PgliteStoreLive(settings.pgliteDir),
  })
  return Layer.provideMerge(SqlPlatformSecret, sql)
}

const smsLayer = (settings: Settings) => {
  switch (settings.smsProvider) {
    case "simulator":
      return SmsGatewaySimulator
    case "unifonic":
      return SmsGatewayUnifonic
    default:
      return Layer.die(new Error(`unknown SMS_PROVIDER: ${settings.smsProvider}`))
  }
}

export const platformLayer = (settings: Settings) => {
  const base = Layer.mergeAll(
    Layer.succeed(PlatformConfig, settings),
    // Effect's own fiber metrics (started, active, lifetimes) cost a metric update at each request's
    // start and end, and nothing here reads them.
    RuntimeFlags.disableRuntimeMetrics,
    settings.clock === "simulated" ? simulatedClockLayer(Date.now()) : Layer.empty,
  )
  const infra = Layer.provideMerge(SecretsLive, storeLayer(settings))
  const withSms = Layer.provideMerge(
    Layer.mergeAll(smsLayer(settings), FetchWebhookTransport, WebhookSignerLive),
    infra,
  )
  const products = Layer.provideMerge(
    Layer.mergeAll(WebhookDispatcher.Default, WebhookConsole.Default),
    Layer.provideMerge(Console.Default, Layer.provideMerge(Verify.Default, withSms)),
  )
  return Layer.provideMerge(Layer.provideMerge(JobsLive, products), base).pipe(Layer.orDie)
}

export type PlatformServices = Layer.Layer.Success<ReturnType<typeof platformLayer>>

/** Every declared operation (the webhook console and the simulators join with the product frame). */
export const declaredOperations = [...verifyOperations, ...accountOperations, ...consoleOperations] as const

/** `GET /openapi.json`: the document of the declared operations, made once. */
const openApiRoute: Route<never> = (() => {
  const document = openApiDocument(declaredOperations)
  return { method: "GET", path: "/openapi.json", handler: () => Effect.succeed({ status: 200, body: document }) }
})()

/** The route table, built once in the platform's runtime (some routes hold their services from the start). */
export const routes = (
  settings: Settings,
): Effect.Effect<ReadonlyArray<Route<PlatformServices>>, never, PlatformServices> =>
  Effect.map(routesOf(declaredOperations), (declared) => [
    openApiRoute,
    ...declared,
    ...webhookRoutes,
    ...simulatorRoutes(settings),
  ])

export interface Platform {
  readonly dispatch: Dispatch
  /**
   * The web-standard handler for embedding in an existing backend. `ip` is the socket peer's address as
   * the server reports it (needed only for keys with an IP allowlist); a header never stands in for it.
   */
  readonly fetch: (request: Request, ip?: CallerAddress) => Promise<Response>
  /** The node:http request listener (Express, Fastify, node:http); it reads the body itself, up to 1 MiB. */
  readonly node: ReturnType<typeof nodeHandler>
  /**
   * The same for a server that takes a Response or a promise of one (Deno.serve, Bun.serve): an answer
   * ready at once is returned at once. `ip` is the caller's address as the server reports it.
   */
  readonly serve: (request: Request, ip?: CallerAddress) => Response | Promise<Response>
  /** The same as an Effect HTTP app (`HttpApp.Default`), for a host app that serves with @effect/platform. */
  readonly httpApp: ReturnType<typeof makeHttpApp>
  readonly runtime: ManagedRuntime.ManagedRuntime<PlatformServices, never>
  /** Set when this start created the demo account. */
  readonly demo: Demo | undefined
  readonly dispose: () => Promise<void>
}

export interface PlatformOptions {
  /** Run the background jobs loop (default true). */
  readonly jobs?: boolean
  /**
   * Create the demo account on an empty store with the simulators (default true); `"reissue"` also issues
   * a fresh demo key pair when the store already holds the demo account (`npm start -- --demo`).
   */
  readonly demo?: boolean | "reissue"
}

export const makePlatform = async (settings: Settings, options: PlatformOptions = {}): Promise<Platform> => {
  const runtime = ManagedRuntime.make(platformLayer(settings))
  await runtime.runPromise(Effect.void)
  const demo = options.demo === false || settings.smsProvider !== "simulator" ? undefined : await runtime.runPromise(
    Effect.flatMap(
      seedDemo,
      (seeded) => seeded || options.demo !== "reissue" ? Effect.succeed(seeded) : reissueDemoKeys,
    ),
  )
  const loop = options.jobs === false ? undefined : runtime.runFork(Effect.flatMap(Jobs, () => jobLoop()))
  const webhookLoop = options.jobs === false ? undefined : runtime.runFork(jobLoopOf(WebhookJob, "200 millis"))
  const dispatch = makeDispatcher(runtime, await runtime.runPromise(routes(settings)), {
    trustedProxies: parseTrustedProxies(settings.trustedProxies),
    allowedOrigins: settings.allowedOrigins,
  })
  return {
    dispatch,
    fetch: webHandler(dispatch),
    node: nodeHandler(dispatch),
    serve: directWebHandler(dispatch),
    httpApp: makeHttpApp(dispatch),
    runtime,
    demo,
    dispose: async () => {
      if (loop) await runtime.runPromise(Fiber.interrupt(loop))
      if (webhookLoop) await runtime.runPromise(Fiber.interrupt(webhookLoop))
      await runtime.dispose()
    },
  }
}
