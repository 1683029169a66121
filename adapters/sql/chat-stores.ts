/** The store assistant's tables over SQL: chat_stores, chat_assistant_tools (migrations/chat/0004_stores.ts). */
import { Effect, Layer, Option } from "effect"
import type { ChatStore } from "../../core/chat/store-model.ts"
import type { AccountId, ApplicationId, Millis } from "../../core/shared/brands.ts"
import type { PlatformProduct, StorePlatformCode } from "../../ports/store-platforms.ts"
import { ChatStoresRepo } from "../../ports/store/chat-stores.ts"
import { atomically, client, first, num, type Row } from "./rows.ts"

const columns =
  "id, account_id, application_id, platform, ref, name, url, token_sealed, products, products_read_at, next_read_at, connected_at"

const toStore = (row: Row): ChatStore => ({
  id: row.id as string,
  accountId: row.account_id as AccountId,
  applicationId: row.application_id as ApplicationId,
  platform: row.platform as StorePlatformCode,
  ref: row.ref as string,
  name: row.name as string,
  url: (row.url ?? null) as string | null,
  tokenSealed: (row.token_sealed ?? null) as string | null,
  products: JSON.parse(row.products as string) as ReadonlyArray<PlatformProduct>,
  productsReadAt: num(row.products_read_at),
  nextReadAt: num(row.next_read_at),
  connectedAt: num(row.connected_at),
})

export const ChatStoresRepoSql = Layer.effect(
  ChatStoresRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const many = (rows: ReadonlyArray<Row>) => rows.map(toStore)
    return {
      get: (id) =>
        sql`SELECT ${sql.literal(columns)} FROM chat_stores WHERE id = ${id}`.pipe(
          Effect.map((rows) => first(rows, toStore)),
          Effect.orDie,
        ),
      ofApplication: (applicationId) =>
        sql`SELECT ${sql.literal(columns)} FROM chat_stores WHERE application_id = ${applicationId}`.pipe(
          Effect.map((rows) => first(rows, toStore)),
          Effect.orDie,
        ),
      connect: (s) =>
        atomically(
          sql,
          Effect.gen(function* () {
            yield* sql`DELETE FROM chat_stores WHERE application_id = ${s.applicationId} AND id <> ${s.id}`
            yield* sql`INSERT INTO chat_stores (${sql.literal(columns)}) VALUES (${s.id}, ${s.accountId},
              ${s.applicationId}, ${s.platform}, ${s.ref}, ${s.name}, ${s.url}, ${s.tokenSealed},
              ${JSON.stringify(s.products)}, ${s.productsReadAt}, ${s.nextReadAt}, ${s.connectedAt})
              ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, url = EXCLUDED.url,
                token_sealed = EXCLUDED.token_sealed, products = EXCLUDED.products,
                products_read_at = EXCLUDED.products_read_at, next_read_at = EXCLUDED.next_read_at`
          }),
        ).pipe(Effect.orDie),
      saveRead: (id, r) =>
        sql`UPDATE chat_stores SET name = ${r.name}, url = ${r.url}, products = ${JSON.stringify(r.products)},
          products_read_at = ${r.productsReadAt}, next_read_at = ${r.nextReadAt} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      postpone: (id, nextReadAt) =>
        sql`UPDATE chat_stores SET next_read_at = ${nextReadAt} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      page: (accountId, after, limit) =>
        (after === null
          ? sql`SELECT ${sql.literal(columns)} FROM chat_stores WHERE account_id = ${accountId}
              ORDER BY connected_at, id LIMIT ${limit}`
          : sql`SELECT ${sql.literal(columns)} FROM chat_stores WHERE account_id = ${accountId}
              AND (connected_at, id) > (${after.connectedAt}, ${after.id}) ORDER BY connected_at, id LIMIT ${limit}`)
          .pipe(Effect.map(many), Effect.orDie),
      due: (now, limit) =>
        sql`SELECT ${sql.literal(columns)} FROM chat_stores WHERE next_read_at <= ${now}
          ORDER BY next_read_at LIMIT ${limit}`.pipe(Effect.map(many), Effect.orDie),
      earliestDue: sql`SELECT min(next_read_at) AS at FROM chat_stores`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]?.at), (at) => num(at) as Millis)),
        Effect.orDie,
      ),
      tools: (applicationId) =>
        sql`SELECT orders, order_status, products FROM chat_assistant_tools
          WHERE application_id = ${applicationId}`.pipe(
          Effect.map((rows) =>
            first(rows, (row) => ({
              orders: row.orders === true,
              order_status: row.order_status === true,
              products: row.products === true,
            }))
          ),
          Effect.orDie,
        ),
      setTools: (applicationId, t) =>
        sql`INSERT INTO chat_assistant_tools (application_id, orders, order_status, products)
          VALUES (${applicationId}, ${t.orders}, ${t.order_status}, ${t.products})
          ON CONFLICT (application_id) DO UPDATE SET orders = EXCLUDED.orders,
            order_status = EXCLUDED.order_status, products = EXCLUDED.products`.pipe(Effect.asVoid, Effect.orDie),
    }
  }),
)
