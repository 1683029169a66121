/**
 * The composition root: the layers a host app composes, the route table, and the runtime every host
 * shares, all folded over the products list (adapters/products.ts). `makePlatform` is what hosts and
 * embedders call.
 */
import { Effect, Fiber, Layer, ManagedRuntime, Option, RuntimeFlags } from "effect"
import { platformLogger } from "./logging.ts"
import type { Route } from "../core/pipeline/handler.ts"
import type { OpenApiDocument } from "../core/pipeline/openapi.ts"
import { routesOf } from "../core/pipeline/routes.ts"
import type { Secrets } from "../ports/secrets.ts"
import type { SmsGateway } from "../ports/sms.ts"
import { simulatedClockLayer } from "./clock/simulated.ts"
import { PlatformConfig, type Settings } from "./config.ts"
import { consoleRoutes } from "./console/serve.tsx"
import { type Demo, reissueDemoKeys, seedDemo } from "./demo.ts"
import { type Readiness, readyRoute } from "./readiness.ts"
import { type Dispatch, makeDispatcher } from "./http/dispatcher.ts"
import { parseTrustedProxies } from "./http/edge.ts"
import { makeHttpApp } from "./http/http-app.ts"
import { nodeHandler } from "./http/node.ts"
import { type CallerAddress, directWebHandler, webHandler } from "./http/web.ts"
import { ClockSimulatorLive, jobLoop, type Jobs, ownJobLoops, type StoreHealth } from "./jobs.ts"
import type { AnyProduct } from "./product.ts"
import {
  checkProducts,
  jobsLayerOf,
  memoryStoreOf,
  openApiOf,
  operationsOf,
  pagesOf,
  products,
  type ProductServices,
  selectedProducts,
  servicesOf,
  smsGatewayOf,
  type Store,
} from "./products.ts"
import { SecretsLive } from "./secrets/node-crypto.ts"
import { PgliteStoreLive, PgStoreLive } from "./sql/store.ts"
import { metricsRoute } from "./telemetry/prometheus.ts"
import { loggedSmsGateway } from "./sms/logged.ts"
import { observedSms, observerOf, telemetryLayer, telemetryOf, type TelemetryOptions } from "./telemetry/layer.ts"

/**
 * The store of the selected products: PostgreSQL when `DATABASE_URL` is set, else PGlite at `PGLITE_DIR`;
 * `memory` for tests and benchmarks.
 */
export const storeLayer = (settings: Settings, list: ReadonlyArray<AnyProduct> = selectedProducts(settings)) => {
  if (settings.store === "memory") return memoryStoreOf(list)
  return Option.match(settings.databaseUrl, {
    onSome: (url) => PgStoreLive(url, list),
    onNone: () => PgliteStoreLive(settings.pgliteDir, list),
  })
}

/** The SMS gateway `SMS_PROVIDER` names, among those the products offer (`smsGateways`). */
const smsLayer = (settings: Settings, all: ReadonlyArray<AnyProduct> = products) =>
  smsGatewayOf(all, settings.smsProvider)

/**
 * The platform's ports over a store: settings, the clock, secrets and the SMS gateway (the SMS simulator
 * writes its log through its own repository, in the store while it is selected).
 */
export const portsLayer = <A, S = SmsGateway>(
  settings: Settings,
  store: Layer.Layer<A>,
  sms: Layer.Layer<S, unknown, any> = smsLayer(settings) as Layer.Layer<any, unknown, any>,
): Layer.Layer<A | S | Secrets | PlatformConfig> => {
  const base = Layer.mergeAll(
    Layer.succeed(PlatformConfig, settings),
    // Effect's own fiber metrics (started, active, lifetimes) cost a metric update at each request's
    // start and end, and nothing here reads them.
    RuntimeFlags.disableRuntimeMetrics,
    settings.clock === "simulated" ? simulatedClockLayer(Date.now()) : Layer.empty,
  )
  const infra = Layer.provideMerge(SecretsLive, store)
  return Layer.provideMerge(
    // Every gateway's sends are logged (adapters/sms/logged.ts) and, with telemetry on, traced and counted.
    Layer.provideMerge(
      observedSms(settings, loggedSmsGateway(settings.smsProvider, sms as Layer.Layer<any, unknown, any>)),
      infra,
    ),
    base,
  ).pipe(Layer.orDie) as Layer.Layer<
    A | S | Secrets | PlatformConfig
  >
}

/** `logger`: the host's own Effect logger (a layer), instead of JSON lines on stdout (adapters/logging.ts). */
export const platformLayer = (
  settings: Settings,
  all: ReadonlyArray<AnyProduct> = products,
  logger?: Layer.Layer<never>,
) => {
  const list = selectedProducts(settings, all)
  checkProducts(list)
  const services = servicesOf(list, settings, portsLayer(settings, storeLayer(settings, list), smsLayer(settings, all)))
  const withJobs = Layer.provideMerge(jobsLayerOf(list), services)
  // The simulated clock's control runs the jobs, so it comes after them.
  const clock = settings.clock === "simulated" ? Layer.provideMerge(ClockSimulatorLive, withJobs) : withJobs
  // The logger first: the migrations and the start log through it.
  return Layer.provideMerge(clock, platformLogger(settings.logLevel, logger)).pipe(Layer.orDie) as Layer.Layer<
    Store | ProductServices | Jobs | StoreHealth | PlatformConfig | Secrets | SmsGateway
  >
}

export type PlatformServices = Layer.Layer.Success<ReturnType<typeof platformLayer>>

/** Every declared operation of every product. */
export const declaredOperations = operationsOf()

/** `GET /openapi.json`: the document of the declared operations, made once. */
/** The document is made on the first request for it, not at start: 50-60 ms of every start on Node (issue 28). */
const openApiRoute = (list: ReadonlyArray<AnyProduct>): Route<never> => {
  let document: OpenApiDocument | undefined
  return {
    method: "GET",
    path: "/openapi.json",
    handler: () => Effect.sync(() => ({ status: 200, body: document ??= openApiOf(list) })),
  }
}

/** The route table, built once in the platform's runtime (some routes hold their services from the start). */
export const routes = (
  settings: Settings,
  all: ReadonlyArray<AnyProduct> = products,
  readiness: Readiness = { stopping: false },
): Effect.Effect<ReadonlyArray<Route<PlatformServices>>, never, PlatformServices> => {
  const list = selectedProducts(settings, all)
  const operations = operationsOf(list)
  return Effect.zipWith(
    routesOf(operations, settings),
    consoleRoutes(settings, pagesOf(list)),
    (declared, pages) => [
      openApiRoute(list),
      readyRoute(readiness),
      ...(telemetryOf(settings).prometheus ? [metricsRoute] : []),
      ...declared,
      ...pages,
    ],
  )
}

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
  /** From now on `/readyz` answers 503 (`stopping`): a host calls it first when asked to stop. */
  readonly stopping: () => void
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
  /** The products to fold (default: adapters/products.ts `products`); a test may add one of its own. */
  readonly products?: ReadonlyArray<AnyProduct>
  /**
   * The host's own Effect logger, as a layer (`Logger.replace(Logger.defaultLogger, mine)`): every line of the
   * platform goes through it, at `settings.logLevel`. Default: JSON lines on stdout (pretty on a terminal).
   */
  readonly logger?: Layer.Layer<never>
  /** How telemetry exports, when the settings turn it on (a test's shorter export interval). */
  readonly telemetry?: TelemetryOptions
}

export const makePlatform = async (settings: Settings, options: PlatformOptions = {}): Promise<Platform> => {
  const runtime = ManagedRuntime.make(
    Layer.provideMerge(
      platformLayer(settings, options.products, options.logger),
      telemetryLayer(settings, options.telemetry),
    ),
  )
  await runtime.runPromise(
    Effect.logInfo("platform started").pipe(Effect.annotateLogs({
      products: selectedProducts(settings, options.products).map((p) => p.name),
      store: settings.store === "memory" ? "memory" : Option.isSome(settings.databaseUrl) ? "postgresql" : "pglite",
      sms_provider: settings.smsProvider,
      clock: settings.clock,
    })),
  )
  const demo = options.demo === false || settings.smsProvider !== "simulator" ? undefined : await runtime.runPromise(
    Effect.flatMap(
      seedDemo,
      (seeded) => seeded || options.demo !== "reissue" ? Effect.succeed(seeded) : reissueDemoKeys,
    ),
  )
  const loop = options.jobs === false ? undefined : runtime.runFork(jobLoop())
  const ownLoops = options.jobs === false ? undefined : runtime.runFork(ownJobLoops)
  const readiness: Readiness = { stopping: false }
  const dispatch = makeDispatcher(runtime, await runtime.runPromise(routes(settings, options.products, readiness)), {
    trustedProxies: parseTrustedProxies(settings.trustedProxies),
    allowedOrigins: settings.allowedOrigins,
  }, observerOf(settings, await runtime.runtime()))
  return {
    dispatch,
    fetch: webHandler(dispatch, { bodyTimeoutMs: settings.requestTimeoutMs }),
    node: nodeHandler(dispatch),
    serve: directWebHandler(dispatch, { bodyTimeoutMs: settings.requestTimeoutMs }),
    httpApp: makeHttpApp(dispatch),
    runtime,
    demo,
    stopping: () => {
      readiness.stopping = true
    },
    dispose: async () => {
      readiness.stopping = true
      if (loop) await runtime.runPromise(Fiber.interrupt(loop))
      if (ownLoops) await runtime.runPromise(Fiber.interrupt(ownLoops))
      await runtime.dispose()
    },
  }
}
