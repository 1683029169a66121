/** Chat's team over SQL: chat_team (migrations/chat/0003), the tokens' persons read from credentials. */
import { Effect, Layer } from "effect"
import type { MemberStatus, TeamMember, TokenHolderMember } from "../../core/chat/team.ts"
import type { Role } from "../../core/keys/model.ts"
import type { ApplicationId, SaudiMobile } from "../../core/shared/brands.ts"
import { ChatTeamRepo } from "../../ports/store/chat-team.ts"
import { client, first, num, numOrNull, type Row } from "./rows.ts"

const toMember = (row: Row): TeamMember => ({
  id: row.id as string,
  applicationId: row.application_id as ApplicationId,
  name: (row.name as string | null) ?? null,
  email: (row.email as string | null) ?? null,
  mobile: (row.mobile as SaudiMobile | null) ?? null,
  role: row.role as Role,
  status: row.status as MemberStatus,
  invitedAt: num(row.invited_at),
  joinedAt: numOrNull(row.joined_at),
  createdAt: num(row.created_at),
  invitationHash: (row.invitation_hash as string | null) ?? null,
})

const toHolder = (row: Row): TokenHolderMember => ({
  memberId: row.member_id as string,
  email: (row.email as string | null) ?? null,
  role: row.role as Role,
  since: num(row.since),
})

export const ChatTeamRepoSql = Layer.effect(
  ChatTeamRepo,
  Effect.gen(function* () {
    const sql = yield* client
    const members = <E, R>(query: Effect.Effect<ReadonlyArray<Row>, E, R>) =>
      query.pipe(Effect.map((rows) => rows.map(toMember)), Effect.orDie)
    return {
      // One row per person: the first e-mail given, the highest role among the tokens not revoked.
      holders: (accountId) =>
        sql`SELECT member_id::text AS member_id, min(created_at) AS since,
            (array_agg(lower(email) ORDER BY created_at) FILTER (WHERE email IS NOT NULL))[1] AS email,
            CASE max(CASE role WHEN 'owner' THEN 3 WHEN 'admin' THEN 2 ELSE 1 END)
              WHEN 3 THEN 'owner' WHEN 2 THEN 'admin' ELSE 'agent' END AS role
          FROM credentials
          WHERE account_id = ${accountId} AND kind = 'account_token' AND revoked_at IS NULL AND member_id IS NOT NULL
          GROUP BY member_id ORDER BY since, member_id`.pipe(
          Effect.map((rows) => rows.map(toHolder)),
          Effect.orDie,
        ),
      activeCount: (applicationId) =>
        sql`WITH persons AS (SELECT c.member_id, lower(c.email) AS email FROM credentials c
            JOIN applications a ON a.account_id = c.account_id
            WHERE a.id = ${applicationId} AND c.kind = 'account_token' AND c.revoked_at IS NULL
              AND c.member_id IS NOT NULL)
          SELECT (SELECT count(DISTINCT member_id) FROM persons)
            + (SELECT count(*) FROM chat_team t WHERE t.application_id = ${applicationId} AND t.status = 'active'
              AND (t.email IS NULL OR NOT EXISTS (SELECT 1 FROM persons p WHERE p.email = t.email))) AS n`.pipe(
          Effect.map((rows) => num(rows[0]?.n ?? 0)),
          Effect.orDie,
        ),
      get: (applicationId, id) =>
        sql`SELECT * FROM chat_team WHERE id = ${id} AND application_id = ${applicationId}`.pipe(
          Effect.map((rows) => first(rows, toMember)),
          Effect.orDie,
        ),
      byContact: (applicationId, contact) =>
        (contact._tag === "Email"
          ? sql`SELECT * FROM chat_team WHERE application_id = ${applicationId} AND email = ${contact.email}`
          : sql`SELECT * FROM chat_team WHERE application_id = ${applicationId} AND mobile = ${contact.mobile}`).pipe(
            Effect.map((rows) => first(rows, toMember)),
            Effect.orDie,
          ),
      insert: (m) =>
        sql`INSERT INTO chat_team (id, application_id, name, email, mobile, role, status, invited_at, joined_at,
            created_at, invitation_hash)
          VALUES (${m.id}, ${m.applicationId}, ${m.name}, ${m.email}, ${m.mobile}, ${m.role}, ${m.status},
            ${m.invitedAt}, ${m.joinedAt}, ${m.createdAt}, ${m.invitationHash})
          ON CONFLICT DO NOTHING RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), Effect.orDie),
      reinvite: (id, at, invitationHash, since) =>
        sql`UPDATE chat_team SET invited_at = ${at}, invitation_hash = ${invitationHash}
          WHERE id = ${id} AND invited_at <= ${since} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
        ),
      restore: (m) =>
        sql`UPDATE chat_team SET invited_at = ${m.invitedAt}, invitation_hash = ${m.invitationHash}
          WHERE id = ${m.id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (id) => sql`DELETE FROM chat_team WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      byInvitation: (invitationHash) =>
        sql`SELECT * FROM chat_team WHERE invitation_hash = ${invitationHash}`.pipe(
          Effect.map((rows) => first(rows, toMember)),
          Effect.orDie,
        ),
      join: (id, at) =>
        sql`UPDATE chat_team SET status = 'active', joined_at = ${at} WHERE id = ${id} AND status = 'invited'`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      page: (applicationId, accountId, after, limit) =>
        members(sql`SELECT t.* FROM chat_team t
          WHERE t.application_id = ${applicationId}
            AND (t.email IS NULL OR NOT EXISTS (SELECT 1 FROM credentials c
              WHERE c.account_id = ${accountId} AND c.kind = 'account_token' AND c.revoked_at IS NULL
                AND c.member_id IS NOT NULL AND lower(c.email) = t.email))
            AND (${after === null} OR t.created_at > ${after?.createdAt ?? 0}
              OR (t.created_at = ${after?.createdAt ?? 0} AND t.id > ${
          after?.id ?? "00000000-0000-0000-0000-000000000000"
        }))
          ORDER BY t.created_at, t.id LIMIT ${limit}`),
    }
  }),
)
