/**
 * Template analyses and their suggestions (DECISIONS 10, 14): each analysis of an application with its
 * suggestions in their order, and the hold a create call takes on it so that two calls never run at once, in
 * one process or several (a leased column: taken by a conditional write, lapsing if its holder dies).
 */
import { Context, type Effect, type Option } from "effect"
import type { SuggestionState, TemplateSuggestion } from "../../core/notifications/suggestions.ts"
import type { ApplicationId, Millis } from "../../core/shared/brands.ts"

export interface TemplateAnalysis {
  readonly id: string
  readonly applicationId: ApplicationId
  readonly createdAt: Millis
  /** In their order (`position`). */
  readonly suggestions: ReadonlyArray<TemplateSuggestion>
}

/** What became of one suggestion. */
export interface SuggestionOutcome {
  readonly key: string
  readonly state: SuggestionState
  readonly error: string | null
  readonly madeOrder: number | null
}

export class TemplateAnalysesRepo extends Context.Tag("ports/TemplateAnalysesRepo")<TemplateAnalysesRepo, {
  /** Records an analysis with its suggestions (all `suggested`). */
  readonly insert: (analysis: TemplateAnalysis) => Effect.Effect<void>
  /** The application's analysis. */
  readonly get: (applicationId: ApplicationId, id: string) => Effect.Effect<Option.Option<TemplateAnalysis>>
  /**
   * Takes the analysis' hold for `holder` until `until`, if nobody holds it or the last hold lapsed (at or
   * before `now`): true when taken. Exactly one of several callers racing wins.
   */
  readonly lease: (id: string, holder: string, now: Millis, until: Millis) => Effect.Effect<boolean>
  /** Gives the hold back, if `holder` still has it. */
  readonly release: (id: string, holder: string) => Effect.Effect<void>
  /**
   * Marks the suggestions of `keys` picked at `at`: `suggested` and `failed` ones (their error cleared); a
   * picked one keeps its first pick's time, a made one stays made.
   */
  readonly pick: (id: string, keys: ReadonlyArray<string>, at: Millis) => Effect.Effect<void>
  /** Records what became of a suggestion. */
  readonly settle: (id: string, outcome: SuggestionOutcome) => Effect.Effect<void>
}>() {}
