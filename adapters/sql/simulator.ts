import { Effect, Layer } from "effect"
import type { SaudiMobile } from "../../core/shared/brands.ts"
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
    }
  }),
)
