/** Approvals and approval policies over SQL. */
import { Effect, Layer } from "effect"
import type { Approval, ApprovalInput } from "../../core/approvals/model.ts"
import type { AccountId } from "../../core/shared/brands.ts"
import { ApprovalsRepo } from "../../ports/store/approvals.ts"
import { client, first, json, num, numOrNull, type Row, toJson } from "./rows.ts"

const columns =
  "id, account_id, operation, input, input_key, idempotency_key, requested_by, status, created_at, expires_at, " +
  "decided_at, note"

const toApproval = (row: Row): Approval => ({
  id: row.id,
  accountId: row.account_id as AccountId,
  operation: row.operation,
  input: json<ApprovalInput>(row.input),
  inputKey: row.input_key,
  idempotencyKey: row.idempotency_key ?? null,
  requestedBy: row.requested_by ?? null,
  status: row.status,
  createdAt: num(row.created_at),
  expiresAt: num(row.expires_at),
  decidedAt: numOrNull(row.decided_at),
  note: row.note ?? null,
})

export const ApprovalsRepoSql = Layer.effect(
  ApprovalsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      insert: (a) =>
        sql`INSERT INTO approvals (${sql.literal(columns)}) VALUES (
          ${a.id}, ${a.accountId}, ${a.operation}, ${toJson(a.input)}::jsonb, ${a.inputKey}, ${a.idempotencyKey},
          ${a.requestedBy}, ${a.status}, ${a.createdAt}, ${a.expiresAt}, ${a.decidedAt}, ${a.note}
        )`.pipe(Effect.asVoid, Effect.orDie),
      get: (id) =>
        sql`SELECT ${sql.literal(columns)} FROM approvals WHERE id = ${id}`.pipe(
          Effect.map((rows) => first(rows, toApproval)),
          Effect.orDie,
        ),
      matching: (accountId, operation, inputKey) =>
        sql`SELECT ${sql.literal(columns)} FROM approvals
          WHERE account_id = ${accountId} AND operation = ${operation} AND md5(input_key) = md5(${inputKey})
            AND input_key = ${inputKey}
          ORDER BY created_at DESC, seq DESC`.pipe(Effect.map((rows) => rows.map(toApproval)), Effect.orDie),
      decide: (id, status, at, note) =>
        sql`UPDATE approvals SET status = ${status}, decided_at = ${at}, note = ${note}
          WHERE id = ${id} AND status = 'pending' AND expires_at > ${at}
          RETURNING ${sql.literal(columns)}`.pipe(Effect.map((rows) => first(rows, toApproval)), Effect.orDie),
      use: (id, at) =>
        sql`UPDATE approvals SET status = 'used' WHERE id = ${id} AND status = 'approved' AND expires_at > ${at}
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      release: (id) =>
        sql`UPDATE approvals SET status = 'approved' WHERE id = ${id} AND status = 'used'`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      policy: (accountId) =>
        sql`SELECT operations FROM approval_policies WHERE account_id = ${accountId}`.pipe(
          Effect.map((rows) => first(rows, (r) => json<ReadonlyArray<string>>(r.operations))),
          Effect.orDie,
        ),
      setPolicy: (accountId, operations) =>
        sql`INSERT INTO approval_policies (account_id, operations) VALUES (${accountId}, ${toJson(operations)}::jsonb)
          ON CONFLICT (account_id) DO UPDATE SET operations = EXCLUDED.operations`.pipe(Effect.asVoid, Effect.orDie),
      pending: (at, limit) =>
        sql`SELECT ${sql.literal(columns)} FROM approvals WHERE status = 'pending' AND expires_at > ${at}
          ORDER BY created_at DESC, seq DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toApproval)),
          Effect.orDie,
        ),
    }
  }),
)
