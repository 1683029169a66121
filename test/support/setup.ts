/**
 * Run in each test file's context before its tests (vitest.config.ts, `setupFiles`): every new PGlite store of
 * the file starts from the snapshot unpacked once, not gunzipped and parsed again per store (a file makes one
 * per test; issue 28). The symbol is adapters/sql/pglite-client.ts's `keepSeedsUnpacked`, named here so that a
 * file that makes no store does not load PGlite for it.
 */
;(globalThis as Record<symbol, unknown>)[Symbol.for("pglite-client.keepSeedsUnpacked")] = true

// The platform logs a JSON line per request at `info` by default: tests run quiet unless the command names a level
// (`LOG_LEVEL=debug npx vitest run …`); the hosts they start inherit it. A test of the logs sets its own.
process.env.LOG_LEVEL ??= "none"
