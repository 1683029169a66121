/** Reminders over SQL (PGlite and PostgreSQL alike). */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer, Option } from "effect"
import type { Reminder } from "../../core/reminders/model.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"
import { RemindersRepo } from "../../ports/store/reminders.ts"

interface Row {
  readonly id: string
  readonly application_id: string
  readonly text: string
  readonly due_at: string | number
  readonly status: "scheduled" | "sent"
  readonly created_at: string | number
}

const toReminder = (r: Row): Reminder => ({
  id: r.id,
  applicationId: r.application_id as ApplicationId,
  text: r.text,
  dueAt: Number(r.due_at),
  status: r.status,
  createdAt: Number(r.created_at),
})

export const RemindersRepoSql = Layer.effect(
  RemindersRepo,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    insert: (r) =>
      sql`INSERT INTO reminders (id, application_id, text, due_at, status, created_at)
        VALUES (${r.id}, ${r.applicationId}, ${r.text}, ${r.dueAt}, ${r.status}, ${r.createdAt})`.pipe(
        Effect.asVoid,
        Effect.orDie,
      ),
    countScheduled: (applicationId) =>
      sql<{ n: string | number }>`SELECT count(*) AS n FROM reminders
        WHERE application_id = ${applicationId} AND status = 'scheduled'`.pipe(
        Effect.map(([r]) => Number(r.n)),
        Effect.orDie,
      ),
    list: (applicationId) =>
      sql<Row>`SELECT * FROM reminders WHERE application_id = ${applicationId} ORDER BY created_at, due_at, id`.pipe(
        Effect.map((rows) => rows.map(toReminder)),
        Effect.orDie,
      ),
    earliestDue: sql<{ at: string | number | null }>`SELECT min(due_at) AS at FROM reminders
      WHERE status = 'scheduled'`.pipe(
      Effect.map(([r]) => (r.at === null ? Option.none() : Option.some(Number(r.at)))),
      Effect.orDie,
    ),
    sendDue: (now) =>
      sql`UPDATE reminders SET status = 'sent' WHERE status = 'scheduled' AND due_at <= ${now} RETURNING id`.pipe(
        Effect.map((rows) => rows.length),
        Effect.orDie,
      ),
  })),
)
