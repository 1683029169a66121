/** Email's simulators over SQL: sim_dns_records, sim_email_sent (migrations/email-simulator), only while selected. */
import { Effect, Layer } from "effect"
import { SimulatedDnsRepo, SimulatedEmailRepo } from "../../ports/store/email-simulator.ts"
import { client, json, num, type Row, toJson } from "./rows.ts"

export const SimulatedDnsRepoSql = Layer.effect(
  SimulatedDnsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      put: (type, name, values) =>
        (values.length === 0
          ? sql`DELETE FROM sim_dns_records WHERE type = ${type} AND name = ${name}`
          : sql`INSERT INTO sim_dns_records (type, name, "values") VALUES (${type}, ${name}, ${toJson(values)}::jsonb)
              ON CONFLICT (type, name) DO UPDATE SET "values" = EXCLUDED."values"`).pipe(Effect.asVoid, Effect.orDie),
      get: (type, name) =>
        sql`SELECT "values" FROM sim_dns_records WHERE type = ${type} AND name = ${name}`.pipe(
          Effect.map((rows) => rows.length === 0 ? [] : json<ReadonlyArray<string>>(rows[0].values)),
          Effect.orDie,
        ),
    }
  }),
)

const toEmail = (row: Row) => ({
  id: row.id as string,
  from: row.from as string,
  to: row.to as string,
  subject: row.subject as string,
  text: (row.text ?? null) as string | null,
  html: (row.html ?? null) as string | null,
  sentAt: num(row.sent_at),
})

export const SimulatedEmailRepoSql = Layer.effect(
  SimulatedEmailRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      append: (e) =>
        sql`INSERT INTO sim_email_sent (id, "from", "to", subject, text, html, sent_at)
          VALUES (${e.id}, ${e.from}, ${e.to}, ${e.subject}, ${e.text}, ${e.html}, ${e.sentAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      list: (to, limit) =>
        (to === undefined
          ? sql`SELECT id, "from", "to", subject, text, html, sent_at FROM sim_email_sent
              ORDER BY sent_at DESC, seq DESC LIMIT ${limit}`
          : sql`SELECT id, "from", "to", subject, text, html, sent_at FROM sim_email_sent WHERE "to" = ${to}
              ORDER BY sent_at DESC, seq DESC LIMIT ${limit}`).pipe(
            Effect.map((rows) => rows.map(toEmail)),
            Effect.orDie,
          ),
    }
  }),
)
