/** Template analyses over SQL: template_analyses, template_suggestions (migrations/notifications/0002). */
import { Effect, Layer, Option } from "effect"
import type { TemplateCategory } from "../../core/notifications/model.ts"
import type { SuggestionState, TemplateSuggestion } from "../../core/notifications/suggestions.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"
import { TemplateAnalysesRepo } from "../../ports/store/template-suggestions.ts"
import { atomically, client, num, numOrNull, type Row } from "./rows.ts"

const toSuggestion = (row: Row): TemplateSuggestion => ({
  key: row.key as string,
  position: num(row.position),
  name: row.name as string,
  category: row.category as TemplateCategory,
  lang: row.lang as string,
  body: row.body as string,
  state: row.state as SuggestionState,
  error: (row.error ?? null) as string | null,
  pickedAt: numOrNull(row.picked_at),
  madeOrder: numOrNull(row.made_order),
})

export const TemplateAnalysesRepoSql = Layer.effect(
  TemplateAnalysesRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      insert: (a) =>
        atomically(
          sql,
          Effect.zipRight(
            sql`INSERT INTO template_analyses (id, application_id, created_at)
              VALUES (${a.id}, ${a.applicationId}, ${a.createdAt})`,
            a.suggestions.length === 0
              ? Effect.void
              : sql`INSERT INTO template_suggestions ${
                sql.insert(a.suggestions.map((s) => ({
                  analysis_id: a.id,
                  key: s.key,
                  position: s.position,
                  name: s.name,
                  category: s.category,
                  lang: s.lang,
                  body: s.body,
                  state: s.state,
                  error: s.error,
                  picked_at: s.pickedAt,
                  made_order: s.madeOrder,
                })))
              }`,
          ),
        ).pipe(Effect.asVoid, Effect.orDie),
      get: (applicationId, id) =>
        Effect.gen(function* () {
          const found = yield* sql`SELECT id, application_id, created_at FROM template_analyses
            WHERE id = ${id} AND application_id = ${applicationId}`
          if (found.length === 0) return Option.none()
          const rows = yield* sql`SELECT "key", position, name, category, lang, body, state, error, picked_at,
              made_order
            FROM template_suggestions WHERE analysis_id = ${id} ORDER BY position`
          return Option.some({
            id,
            applicationId: found[0].application_id as ApplicationId,
            createdAt: num(found[0].created_at),
            suggestions: rows.map(toSuggestion),
          })
        }).pipe(Effect.orDie),
      // One conditional UPDATE: PostgreSQL lets one of several racing writers through; the others, once it
      // commits, find the hold taken.
      lease: (id, holder, now, until) =>
        sql`UPDATE template_analyses SET run_holder = ${holder}, run_until = ${until}
          WHERE id = ${id} AND (run_holder IS NULL OR run_until <= ${now})
          RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), Effect.orDie),
      release: (id, holder) =>
        sql`UPDATE template_analyses SET run_holder = NULL, run_until = NULL
          WHERE id = ${id} AND run_holder = ${holder}`.pipe(Effect.asVoid, Effect.orDie),
      pick: (id, keys, at) =>
        keys.length === 0 ? Effect.void : sql`UPDATE template_suggestions
          SET state = 'picked', error = NULL, picked_at = ${at}
          WHERE analysis_id = ${id} AND ${sql.in("key", keys)} AND state IN ('suggested', 'failed')`.pipe(
          Effect.asVoid,
          Effect.orDie,
        ),
      settle: (id, o) =>
        sql`UPDATE template_suggestions SET state = ${o.state}, error = ${o.error}, made_order = ${o.madeOrder}
          WHERE analysis_id = ${id} AND "key" = ${o.key}`.pipe(Effect.asVoid, Effect.orDie),
    }
  }),
)
