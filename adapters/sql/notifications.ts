/** Notifications' tables over SQL: chat_messages, chat_channels, chat_consent (migrations/notifications). */
import { Effect, Layer } from "effect"
import type { MessageError, MessageStatus, TemplateCategory } from "../../core/notifications/model.ts"
import type { AccountId, ApplicationId, SaudiMobile } from "../../core/shared/brands.ts"
import {
  ChatChannelsRepo,
  ChatConsentRepo,
  type ChatMessage,
  ChatMessagesRepo,
  type ConsentSource,
} from "../../ports/store/notifications.ts"
import { client, first, json, num, type Row, toJson } from "./rows.ts"

const columns = `id, application_id, account_id, "to", template, lang, category, reference, price_halalas, status,
  error, provider_message_id, created_at, occurred_at`

const toMessage = (row: Row): ChatMessage => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  accountId: row.account_id as AccountId,
  to: row.to as SaudiMobile,
  template: row.template as string,
  lang: row.lang as string,
  category: row.category as TemplateCategory,
  reference: (row.reference ?? null) as string | null,
  priceHalalas: num(row.price_halalas),
  status: row.status as MessageStatus,
  error: row.error === null || row.error === undefined ? null : json<MessageError>(row.error),
  providerMessageId: (row.provider_message_id ?? null) as string | null,
  createdAt: num(row.created_at),
  occurredAt: num(row.occurred_at),
})

export const ChatMessagesRepoSql = Layer.effect(
  ChatMessagesRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const one = (rows: ReadonlyArray<Row>) => first(rows, toMessage)
    return {
      insert: (m) =>
        sql`INSERT INTO chat_messages (id, application_id, account_id, "to", template, lang, category, reference,
            price_halalas, status, error, provider_message_id, created_at, occurred_at)
          VALUES (${m.id}, ${m.applicationId}, ${m.accountId}, ${m.to}, ${m.template}, ${m.lang}, ${m.category},
            ${m.reference}, ${m.priceHalalas}, ${m.status}, ${m.error === null ? null : toJson(m.error)}::jsonb,
            ${m.providerMessageId}, ${m.createdAt}, ${m.occurredAt})`.pipe(Effect.asVoid, Effect.orDie),
      setProviderId: (id, providerMessageId) =>
        sql`UPDATE chat_messages SET provider_message_id = ${providerMessageId} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      remove: (id) => sql`DELETE FROM chat_messages WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      get: (applicationId, id) =>
        sql`SELECT ${sql.literal(columns)} FROM chat_messages WHERE id = ${id} AND application_id = ${applicationId}`
          .pipe(Effect.map(one), Effect.orDie),
      find: (id) =>
        sql`SELECT ${sql.literal(columns)} FROM chat_messages WHERE id = ${id}`.pipe(Effect.map(one), Effect.orDie),
      findByProviderId: (providerMessageId) =>
        sql`SELECT ${sql.literal(columns)} FROM chat_messages WHERE provider_message_id = ${providerMessageId}`.pipe(
          Effect.map(one),
          Effect.orDie,
        ),
      move: (move) =>
        sql`UPDATE chat_messages
          SET status = ${move.to}, error = ${move.error === null ? null : toJson(move.error)}::jsonb,
            occurred_at = ${move.at}
          WHERE id = ${move.id} AND status = ${move.from}
          RETURNING ${sql.literal(columns)}`.pipe(Effect.map(one), Effect.orDie),
    }
  }),
)

export const ChatChannelsRepoSql = Layer.effect(
  ChatChannelsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      enabled: (applicationId) =>
        sql`SELECT enabled FROM chat_channels WHERE application_id = ${applicationId}`.pipe(
          Effect.map((rows) => rows.length === 0 || rows[0].enabled === true),
          Effect.orDie,
        ),
      setEnabled: (applicationId, enabled) =>
        sql`INSERT INTO chat_channels (application_id, enabled) VALUES (${applicationId}, ${enabled})
          ON CONFLICT (application_id) DO UPDATE SET enabled = EXCLUDED.enabled`.pipe(Effect.asVoid, Effect.orDie),
    }
  }),
)

export const ChatConsentRepoSql = Layer.effect(
  ChatConsentRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      get: (applicationId, to) =>
        sql`SELECT opted_out, source, updated_at FROM chat_consent
          WHERE application_id = ${applicationId} AND "to" = ${to}`.pipe(
          Effect.map((rows) =>
            first(rows, (row) => ({
              applicationId,
              to,
              optedOut: row.opted_out === true,
              source: row.source as ConsentSource,
              updatedAt: num(row.updated_at),
            }))
          ),
          Effect.orDie,
        ),
      set: (c) =>
        sql`INSERT INTO chat_consent (application_id, "to", opted_out, source, updated_at)
          VALUES (${c.applicationId}, ${c.to}, ${c.optedOut}, ${c.source}, ${c.updatedAt})
          ON CONFLICT (application_id, "to") DO UPDATE
          SET opted_out = EXCLUDED.opted_out, source = EXCLUDED.source, updated_at = EXCLUDED.updated_at`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
    }
  }),
)
