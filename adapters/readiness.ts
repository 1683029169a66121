/** `GET /readyz`, the platform's readiness beside `/healthz`'s liveness (docs/configuration.md). */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option } from "effect"
import type { Route } from "../core/pipeline/handler.ts"

/** What `/readyz` reads besides the store: whether the process is stopping. */
export interface Readiness {
  stopping: boolean
}

/** How long `/readyz` waits for the store's `SELECT 1`. */
const readyProbeMs = 2_000

/**
 * `GET /readyz`: 200 `{ "status": "ready" }` while the store answers (the platform takes requests only once it
 * is migrated), 503 `{ "status": "not_ready", "reason": "store_unreachable" | "stopping" }` with `Retry-After`
 * otherwise. `/healthz` stays liveness: 200 while the process answers at all.
 */
export const readyRoute = (readiness: Readiness): Route<never> => {
  const notReady = (reason: string) => ({
    status: 503,
    headers: { "retry-after": "5", "cache-control": "no-store" },
    body: { status: "not_ready", reason },
  })
  const probe = Effect.flatMap(
    Effect.serviceOption(SqlClient.SqlClient),
    (sql) => Option.isNone(sql) ? Effect.void : Effect.asVoid(sql.value`SELECT 1`),
  )
  return {
    method: "GET",
    path: "/readyz",
    handler: () =>
      readiness.stopping ? Effect.succeed(notReady("stopping")) : probe.pipe(
        Effect.timeoutFail({ duration: readyProbeMs, onTimeout: () => "timeout" }),
        Effect.as({ status: 200, headers: { "cache-control": "no-store" }, body: { status: "ready" } }),
        Effect.catchAllCause(() => Effect.succeed(notReady(readiness.stopping ? "stopping" : "store_unreachable"))),
      ) as Effect.Effect<{ status: number; body: unknown }>,
  } as Route<never>
}
