/** The account's audit record over SQL. */
import { Effect, Layer } from "effect"
import type { AuditActor, AuditEntry } from "../../core/audit/model.ts"
import type { AccountId } from "../../core/shared/brands.ts"
import { AuditRepo } from "../../ports/store/audit.ts"
import { client, json, num, type Row, toJson } from "./rows.ts"

const toEntry = (row: Row): AuditEntry => ({
  id: row.id,
  accountId: row.account_id as AccountId,
  at: num(row.at),
  actor: json<AuditActor>(row.actor),
  applicationId: row.application_id ?? null,
  action: row.action,
  details: json<unknown>(row.details),
})

export const AuditRepoSql = Layer.effect(
  AuditRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      append: (e) =>
        sql`INSERT INTO audit_entries (id, account_id, at, actor, application_id, action, details) VALUES (
          ${e.id}, ${e.accountId}, ${e.at}, ${toJson(e.actor)}::jsonb, ${e.applicationId}, ${e.action},
          ${toJson(e.details ?? null)}::jsonb
        )`.pipe(Effect.asVoid, Effect.orDie),
      page: (accountId, after, limit) =>
        (after === null
          ? sql`SELECT * FROM audit_entries WHERE account_id = ${accountId}
              ORDER BY at DESC, id DESC LIMIT ${limit}`
          : sql`SELECT * FROM audit_entries WHERE account_id = ${accountId}
              AND (at, id) < (${after.at}, ${after.id}::uuid)
              ORDER BY at DESC, id DESC LIMIT ${limit}`).pipe(
            Effect.map((rows) => rows.map(toEntry)),
            Effect.orDie,
          ),
    }
  }),
)
