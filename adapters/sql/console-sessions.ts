/** Console sessions signed out before they expired (ports/store/console-sessions.ts). */
import { Effect, Layer } from "effect"
import { ConsoleSessionsRepo } from "../../ports/store/console-sessions.ts"
import { client } from "./rows.ts"

export const ConsoleSessionsRepoSql = Layer.effect(
  ConsoleSessionsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      end: (id, until, now) =>
        sql`WITH gone AS (DELETE FROM console_session_ends WHERE until <= ${now})
          INSERT INTO console_session_ends (id, until) VALUES (${id}, ${until})
          ON CONFLICT (id) DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),
      ended: (id, now) =>
        sql`SELECT 1 FROM console_session_ends WHERE id = ${id} AND until > ${now}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
        ),
    }
  }),
)
