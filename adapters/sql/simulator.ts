import { Effect, Layer, Option } from "effect"
import type { Millis, SaudiMobile } from "../../core/shared/brands.ts"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { client, num } from "./rows.ts"

export const SimulatedSmsRepoSql = Layer.effect(
  SimulatedSmsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      append: (sms) =>
        sql`INSERT INTO sim_sms (id, "to", text, sent_at) VALUES (${sms.id}, ${sms.to}, ${sms.text}, ${sms.sentAt})`
          .pipe(
            Effect.asVoid,
            Effect.orDie,
          ),
      listTo: (to, limit) =>
        sql`SELECT id, "to", text, sent_at FROM sim_sms WHERE "to" = ${to}
          ORDER BY sent_at DESC, seq DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              id: row.id as string,
              to: row.to as SaudiMobile,
              text: row.text as string,
              sentAt: num(row.sent_at),
            }))
          ),
          Effect.orDie,
        ),
      // `seq` follows insertion, and `sent_at` with it: a batch looks at the `limit` lowest (its unique index) and
      // drops those old enough, so it never scans past the oldest text kept.
      prune: (before, limit) =>
        sql`WITH gone AS (
            DELETE FROM sim_sms WHERE seq = ANY (ARRAY(
              SELECT seq FROM (SELECT seq, sent_at FROM sim_sms ORDER BY seq LIMIT ${limit}) lowest
              WHERE sent_at < ${before}))
            RETURNING 1)
          SELECT count(*) AS n FROM gone`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      oldest: sql`SELECT sent_at FROM sim_sms ORDER BY seq LIMIT 1`.pipe(
        Effect.map((rows) => (rows.length === 0 ? Option.none<Millis>() : Option.some(num(rows[0].sent_at)))),
        Effect.orDie,
      ),
    }
  }),
)
