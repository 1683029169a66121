/** Chat's tables over SQL: chat_menus, chat_attendants, chat_attendant_versions (migrations/chat). */
import { Effect, Layer } from "effect"
import type { LiveMenu } from "../../core/chat/attendant.ts"
import type { ChatMenu } from "../../core/chat/menus.ts"
import type { Attendant, AttendantLanguage, AttendantMode } from "../../core/chat/model.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"
import { ChatAttendantsRepo, ChatMenusRepo } from "../../ports/store/chat.ts"
import { atomically, client, first, num, type Row } from "./rows.ts"

const menuColumns = "id, application_id, app_name, title, url, created_at, updated_at"

const toMenu = (row: Row): ChatMenu => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  appName: row.app_name as string,
  title: row.title as string,
  url: row.url as string,
  createdAt: num(row.created_at),
  updatedAt: num(row.updated_at),
})

export const ChatMenusRepoSql = Layer.effect(
  ChatMenusRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      list: (applicationId, appName) =>
        sql`SELECT ${sql.literal(menuColumns)} FROM chat_menus
          WHERE application_id = ${applicationId} AND app_name = ${appName} ORDER BY created_at, id`.pipe(
          Effect.map((rows) => rows.map(toMenu)),
          Effect.orDie,
        ),
      get: (applicationId, appName, id) =>
        sql`SELECT ${sql.literal(menuColumns)} FROM chat_menus
          WHERE id = ${id} AND application_id = ${applicationId} AND app_name = ${appName}`.pipe(
          Effect.map((rows) => first(rows, toMenu)),
          Effect.orDie,
        ),
      // The count and the insert under one lock per application and app, held until the transaction ends.
      insert: (m, max) =>
        atomically(
          sql,
          Effect.gen(function* () {
            yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`chat.menus:${m.applicationId}:${m.appName}`}, 0))`
            const held = yield* sql`SELECT count(*) AS n FROM chat_menus
              WHERE application_id = ${m.applicationId} AND app_name = ${m.appName}`
            if (num(held[0].n) >= max) return false
            yield* sql`INSERT INTO chat_menus (id, application_id, app_name, title, url, created_at, updated_at)
              VALUES (${m.id}, ${m.applicationId}, ${m.appName}, ${m.title}, ${m.url}, ${m.createdAt}, ${m.updatedAt})`
            return true
          }),
        ).pipe(Effect.orDie),
      update: (m) =>
        sql`UPDATE chat_menus SET title = ${m.title}, url = ${m.url}, updated_at = ${m.updatedAt}
          WHERE id = ${m.id} AND application_id = ${m.applicationId} AND app_name = ${m.appName}`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      remove: (applicationId, appName, id) =>
        sql`DELETE FROM chat_menus WHERE id = ${id} AND application_id = ${applicationId} AND app_name = ${appName}
          RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
    }
  }),
)

const toAttendant = (row: Row): Attendant => ({
  applicationId: row.application_id as ApplicationId,
  enabled: row.enabled === true,
  mode: row.mode as AttendantMode,
  language: row.language as AttendantLanguage,
  draft: row.draft_menu === null || row.draft_menu === undefined
    ? null
    : { menu: JSON.parse(row.draft_menu as string), savedAt: num(row.draft_saved_at) },
  live: row.live_version === null || row.live_version === undefined ? null : {
    version: num(row.live_version),
    publishedAt: num(row.live_published_at),
    menu: JSON.parse(row.live_menu as string),
  },
})

export const ChatAttendantsRepoSql = Layer.effect(
  ChatAttendantsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const select = (applicationId: ApplicationId) =>
      sql`SELECT * FROM chat_attendants WHERE application_id = ${applicationId}`.pipe(
        Effect.map((rows) => first(rows, toAttendant)),
      )
    return {
      // An attendant not saved yet has no row to lock: the lock is the application's, held until the transaction ends.
      get: (applicationId, forUpdate = false) =>
        (forUpdate
          ? Effect.zipRight(
            sql`SELECT pg_advisory_xact_lock(hashtextextended(${`chat.attendant:${applicationId}`}, 0))`,
            select(applicationId),
          )
          : select(applicationId)).pipe(Effect.orDie),
      // The lock first (the outer side of the join), then the attendant; no draft (up to 64 KB) to parse.
      forCustomer: (applicationId, phone) =>
        sql`SELECT a.application_id, a.enabled, a.mode, a.language, a.live_version, a.live_published_at, a.live_menu
          FROM (SELECT pg_advisory_xact_lock(hashtextextended(${`chat.conversation:${applicationId}:${phone}`}, 0))) l
          LEFT JOIN chat_attendants a ON a.application_id = ${applicationId}`.pipe(
          Effect.map((rows) => first(rows.filter((row) => row.application_id !== null), toAttendant)),
          Effect.orDie,
        ),
      save: (a) =>
        sql`INSERT INTO chat_attendants (application_id, enabled, mode, language, draft_menu, draft_saved_at)
          VALUES (${a.applicationId}, ${a.enabled}, ${a.mode}, ${a.language},
            ${a.draft === null ? null : JSON.stringify(a.draft.menu)}, ${a.draft?.savedAt ?? null})
          ON CONFLICT (application_id) DO UPDATE SET enabled = EXCLUDED.enabled, mode = EXCLUDED.mode,
            language = EXCLUDED.language, draft_menu = EXCLUDED.draft_menu, draft_saved_at = EXCLUDED.draft_saved_at`
          .pipe(Effect.asVoid, Effect.orDie),
      publish: (applicationId, live: LiveMenu) =>
        atomically(
          sql,
          Effect.zipRight(
            sql`INSERT INTO chat_attendant_versions (application_id, version, menu, published_at)
              VALUES (${applicationId}, ${live.version}, ${JSON.stringify(live.menu)}, ${live.publishedAt})`,
            sql`UPDATE chat_attendants SET live_version = ${live.version}, live_published_at = ${live.publishedAt},
              live_menu = ${JSON.stringify(live.menu)} WHERE application_id = ${applicationId}`,
          ),
        ).pipe(Effect.asVoid, Effect.orDie),
      version: (applicationId, version) =>
        sql`SELECT version, menu, published_at FROM chat_attendant_versions
          WHERE application_id = ${applicationId} AND version = ${version}`.pipe(
          Effect.map((rows) =>
            first(rows, (row) => ({
              version: num(row.version),
              publishedAt: num(row.published_at),
              menu: JSON.parse(row.menu as string),
            }))
          ),
          Effect.orDie,
        ),
    }
  }),
)
