import { Effect, Layer } from "effect"
import type { AccountId, ApplicationId, EventId } from "../../core/shared/brands.ts"
import { type OutboxEvent, OutboxRepo } from "../../ports/store/outbox.ts"
import { client, json, num, type Row, toJson } from "./rows.ts"

export const toEvent = (row: Row): OutboxEvent => ({
  id: row.id as EventId,
  event: row.event,
  data: json<Record<string, unknown>>(row.data),
  applicationId: (row.application_id ?? null) as ApplicationId | null,
  accountId: row.account_id as AccountId,
  externalId: row.external_id ?? null,
  createdAt: num(row.created_at),
})

export const OutboxRepoSql = Layer.effect(
  OutboxRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      // One statement for the batch: all rows or none; `seq` follows the order of the VALUES list.
      append: (events) =>
        events.length === 0 ? Effect.void : sql`INSERT INTO outbox_events ${
          sql.insert(events.map((e) => ({
            id: e.id,
            event: e.event,
            data: toJson(e.data),
            application_id: e.applicationId,
            account_id: e.accountId,
            external_id: e.externalId,
            created_at: e.createdAt,
          })))
        }`.pipe(Effect.asVoid, Effect.orDie),
      listRecent: (limit) =>
        sql`SELECT id, event, data, application_id, account_id, external_id, created_at FROM outbox_events
          ORDER BY created_at DESC, seq DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          Effect.orDie,
        ),
    }
  }),
)
