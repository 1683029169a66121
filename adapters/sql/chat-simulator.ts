/** The chat-network simulator's state over SQL (migrations/chatmsg-simulator), only while it is selected. */
import { Effect, Layer, Option } from "effect"
import type { NetworkTemplate } from "../../core/notifications/model.ts"
import type { ApplicationId, SaudiMobile } from "../../core/shared/brands.ts"
import { SimulatedChatRepo } from "../../ports/store/chat-simulator.ts"
import { client, first, json, num, type Row, toJson } from "./rows.ts"

const toSent = (row: Row) => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  to: row.to as SaudiMobile,
  template: row.template as string,
  lang: row.lang as string,
  text: row.text as string,
  sentAt: num(row.sent_at),
})

export const SimulatedChatRepoSql = Layer.effect(
  SimulatedChatRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      number: (applicationId) =>
        sql`SELECT number, connected FROM sim_chat_numbers WHERE application_id = ${applicationId}`.pipe(
          Effect.map((rows) =>
            first(rows, (row) => ({ number: row.number as string, connected: row.connected === true }))
          ),
          Effect.orDie,
        ),
      setNumber: (applicationId, number) =>
        (Option.isSome(number)
          ? sql`INSERT INTO sim_chat_numbers (application_id, number, connected)
              VALUES (${applicationId}, ${number.value.number}, ${number.value.connected})
              ON CONFLICT (application_id) DO UPDATE SET number = EXCLUDED.number, connected = EXCLUDED.connected`
          : sql`DELETE FROM sim_chat_numbers WHERE application_id = ${applicationId}`).pipe(
            Effect.asVoid,
            Effect.orDie,
          ),
      templates: (applicationId) =>
        sql`SELECT template FROM sim_chat_templates WHERE application_id = ${applicationId}
          ORDER BY name COLLATE "C", lang COLLATE "C"`.pipe(
          Effect.map((rows) => rows.map((row) => json<NetworkTemplate>(row.template))),
          Effect.orDie,
        ),
      putTemplate: (applicationId, t) =>
        sql`INSERT INTO sim_chat_templates (application_id, name, lang, template)
          VALUES (${applicationId}, ${t.name}, ${t.lang}, ${toJson(t)}::jsonb)
          ON CONFLICT (application_id, name, lang) DO UPDATE SET template = EXCLUDED.template`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      deleteTemplate: (applicationId, name, lang) =>
        sql`WITH gone AS (DELETE FROM sim_chat_templates
            WHERE application_id = ${applicationId} AND name = ${name} AND (${lang ?? null}::text IS NULL OR lang = ${
          lang ?? null
        }::text)
            RETURNING 1)
          SELECT count(*) AS n FROM gone`.pipe(Effect.map((rows) => num(rows[0].n)), Effect.orDie),
      readable: (applicationId) =>
        sql`SELECT 1 FROM sim_chat_unreadable WHERE application_id = ${applicationId}`.pipe(
          Effect.map((rows) => rows.length === 0),
          Effect.orDie,
        ),
      setReadable: (applicationId, readable) =>
        (readable
          ? sql`DELETE FROM sim_chat_unreadable WHERE application_id = ${applicationId}`
          : sql`INSERT INTO sim_chat_unreadable (application_id) VALUES (${applicationId}) ON CONFLICT DO NOTHING`)
          .pipe(Effect.asVoid, Effect.orDie),
      logSend: (m) =>
        sql`INSERT INTO sim_chat_sent (id, application_id, "to", template, lang, text, sent_at)
          VALUES (${m.id}, ${m.applicationId}, ${m.to}, ${m.template}, ${m.lang}, ${m.text}, ${m.sentAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      listSent: (to, limit) =>
        (to === undefined
          ? sql`SELECT id, application_id, "to", template, lang, text, sent_at FROM sim_chat_sent
              ORDER BY sent_at DESC, seq DESC LIMIT ${limit}`
          : sql`SELECT id, application_id, "to", template, lang, text, sent_at FROM sim_chat_sent WHERE "to" = ${to}
              ORDER BY sent_at DESC, seq DESC LIMIT ${limit}`).pipe(
            Effect.map((rows) => rows.map(toSent)),
            Effect.orDie,
          ),
    }
  }),
)
