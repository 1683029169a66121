/**
 * Test harness: the whole platform in this process behind a real node:http socket.
 * Defaults: memory store, simulators, simulated clock, no background loop, the demo account.
 */
import { Effect, Option } from "effect"
import { type Settings, settingsFromEnv } from "../../adapters/config.ts"
import { makePlatform, type Platform, type PlatformOptions } from "../../adapters/platform.ts"
import { close, listen, nodeServer } from "../../adapters/http/node.ts"
import { type Call, type ConsoleCall, consoleCaller, jsonCall } from "./net.ts"
import { describe } from "vitest"
import { forSuite } from "./suite.ts"
import { freshStore } from "./pg.ts"

export interface TestServer {
  readonly baseUrl: string
  readonly consoleToken: string
  readonly platform: Platform
  readonly settings: Settings
  /** fetch against the server (see `Call`). */
  readonly call: Call
  /** A console call with the console token; answers `data` on 2xx and throws otherwise. */
  readonly console: ConsoleCall
  readonly close: () => Promise<void>
}

export const startServer = async (
  overrides: Partial<Settings> = {},
  options: PlatformOptions = { jobs: false },
): Promise<TestServer> => {
  const base = await Effect.runPromise(settingsFromEnv)
  const settings: Settings = {
    ...base,
    store: "memory",
    clock: "simulated",
    smsProvider: "simulator",
    consoleToken: "console-test-token",
    consoleTokenGenerated: false,
    // The store is what the test names: a `store: "sql"` suite without a `databaseUrl` is PGlite's, even when
    // the test command runs with DATABASE_URL set (it ran on PostgreSQL's public schema before).
    databaseUrl: Option.none(),
    ...overrides,
  }
  const platform = await makePlatform(settings, options)
  const server = nodeServer(platform.dispatch)
  const port = await listen(server, 0, "127.0.0.1")
  const baseUrl = `http://127.0.0.1:${port}`
  const call = jsonCall(baseUrl)
  return {
    baseUrl,
    consoleToken: settings.consoleToken,
    platform,
    settings,
    call,
    console: consoleCaller(call, settings.consoleToken),
    close: async () => {
      await close(server)
      await platform.dispose()
    },
  }
}

/** The server of the enclosing suite (file or `describe`), see `forSuite`. */
export const useServer = (...args: Parameters<typeof startServer>): TestServer => forSuite(() => startServer(...args))

/** Creates an approved application with a funded wallet and a key, through the console. */
export const setupApplication = async (
  s: TestServer,
  opts: { balance?: number; mode?: "live" | "test"; access?: unknown; sandboxOnly?: boolean; approved?: boolean } = {},
) => {
  const account = await s.console("POST", "/accounts", { name: "Merchant", sandbox_only: opts.sandboxOnly ?? false })
  const app = await s.console("POST", `/accounts/${account.id}/applications`, {
    name: "Shop",
    approved: opts.approved ?? true,
  })
  if ((opts.balance ?? 10_000) > 0) {
    await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: opts.balance ?? 10_000 })
  }
  const key = await s.console("POST", `/applications/${app.id}/keys`, {
    mode: opts.mode ?? "live",
    ...(opts.access === undefined ? {} : { access: opts.access }),
  })
  return { account, app, key: key.key as string, keyId: key.id as string }
}

/** The latest code the SMS simulator sent to `to`. */
export const latestCode = async (s: TestServer, to: string): Promise<string> => {
  const res = await s.call("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, { key: s.consoleToken })
  const text: string = res.body.data[0].text
  return /\b\d{4,8}\b/.exec(text)![0]
}

/**
 * The server of the enclosing suite on PostgreSQL (`databaseUrl`), on a store of its own dropped when the suite
 * ends: a database cloned from the migrated template (`freshStore`), else a schema its start migrates.
 */
export const usePostgresServer = (
  databaseUrl: string,
  overrides: Partial<Settings> = {},
): TestServer & { readonly storeUrl: string } =>
  forSuite(async () => {
    const store = await freshStore(databaseUrl)
    const server = await startServer({ ...overrides, store: "sql", databaseUrl: Option.some(store.url) })
    return {
      ...server,
      /** The store's own URL: a second platform on it stands for a second process. */
      storeUrl: store.url,
      close: async () => {
        await server.close()
        await store.drop()
      },
    }
  })

export type StoreName = "memory" | "PGlite" | "PostgreSQL"

/**
 * `rules` once on each store, each in a describe of its own over a server of its own: the memory store, PGlite
 * in memory, and PostgreSQL on a store of its own when DATABASE_URL is set (`usePostgresServer`).
 */
export const onEveryStore = (rules: (server: () => TestServer, store: StoreName) => void): void => {
  describe("on the memory store", () => {
    const s = useServer()
    rules(() => s, "memory")
  })
  describe("on PGlite", () => {
    const s = useServer({ store: "sql", pgliteDir: "memory://" })
    rules(() => s, "PGlite")
  })
  const databaseUrl = process.env.DATABASE_URL
  describe.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL)", () => {
    const s = usePostgresServer(databaseUrl ?? "")
    rules(() => s, "PostgreSQL")
  })
}
