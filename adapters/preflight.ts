/**
 * What the start checks of the world before it opens the store, after the settings themselves
 * (adapters/config.ts): PGlite's directory can be made and written, PostgreSQL answers within
 * `DATABASE_WAIT_MS`. Each failure is one `SettingRefused` naming the variable.
 */
import { accessSync, constants, existsSync, mkdirSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { Effect, Option } from "effect"
import { SettingRefused, type Settings, settingsTable } from "./config.ts"

/** A URL as it may be printed: its password replaced. */
export const maskedUrl = (url: string): string => {
  try {
    const u = new URL(url)
    if (u.password !== "") u.password = "***"
    return u.toString()
  } catch {
    return url
  }
}

/**
 * Makes `dir` one level at a time: Node 20's `mkdirSync(dir, { recursive: true })` never returns for a path
 * under /proc (it retries the ENOENT for ever), which is how `PGLITE_DIR=/proc/nope` hung the start.
 */
const makeDirectory = (dir: string): void => {
  const missing: Array<string> = []
  let at = resolve(dir)
  while (!existsSync(at) && dirname(at) !== at) {
    missing.unshift(at)
    at = dirname(at)
  }
  for (const d of missing) mkdirSync(d)
}

const pgliteWritable = (dir: string): Effect.Effect<void, SettingRefused> =>
  Effect.try({
    try: () => {
      makeDirectory(dir)
      accessSync(dir, constants.W_OK)
    },
    catch: (e) =>
      new SettingRefused({
        variable: "PGLITE_DIR",
        given: dir,
        accepts: `${settingsTable.pgliteDir.accepts} (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      }),
  })

/** SQLSTATE classes no wait mends: authentication (28), no such database (3D). */
const hopeless = (e: unknown) => /^(28|3D)/.test(String((e as { code?: unknown }).code ?? ""))

const connectOnce = async (url: string, timeoutMs: number): Promise<void> => {
  // Imported here: a PGlite start does not load the PostgreSQL driver (issue 28).
  // Deno has no types for npm:pg of its own (tsc and Node read @types/pg from node_modules).
  // @ts-types="npm:@types/pg@^8.15.0"
  const { default: Pg } = await import("pg")
  const client = new Pg.Client({ connectionString: url, connectionTimeoutMillis: Math.max(timeoutMs, 250) })
  // An error after connect (the server going away meanwhile) must not be thrown unhandled.
  client.on("error", () => {})
  try {
    await client.connect()
    await client.query("SELECT 1")
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Waits up to `waitMs` for PostgreSQL to answer, trying again every half second and once more at the deadline (it
 * gave up half a second early before, after 0.8 s of a 1.2 s wait when the first try was slow).
 */
export const postgresAnswers = (url: string, waitMs: number): Effect.Effect<void, SettingRefused> =>
  Effect.tryPromise({
    try: async () => {
      const deadline = Date.now() + waitMs
      for (;;) {
        try {
          return await connectOnce(url, Math.min(3_000, Math.max(deadline - Date.now(), 0)))
        } catch (e) {
          const left = deadline - Date.now()
          if (hopeless(e) || left <= 0) throw e
          await new Promise((ok) => setTimeout(ok, Math.min(500, left)))
        }
      }
    },
    catch: (e) =>
      new SettingRefused({
        variable: "DATABASE_URL",
        given: maskedUrl(url),
        accepts: `a PostgreSQL that answers within DATABASE_WAIT_MS (${waitMs} ms); it said: ${
          (e instanceof Error ? e.message : String(e)).split("\n")[0] || (e as { code?: string }).code
        }`,
      }),
  })

/** The store's preconditions for `settings`. */
export const preflight = (settings: Settings): Effect.Effect<void, SettingRefused> => {
  if (settings.store === "memory") return Effect.void
  return Option.match(settings.databaseUrl, {
    onSome: (url) => postgresAnswers(url, settings.databaseWaitMs),
    onNone: () => settings.pgliteDir.startsWith("memory://") ? Effect.void : pgliteWritable(settings.pgliteDir),
  })
}
