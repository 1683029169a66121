/**
 * Template suggestions (DECISIONS 10 "Operations", 14, 16): the console records an analysis; the account API
 * shows it and creates the picked suggestions on the chat network.
 *
 * A create call, in order: its keys each a suggestion of the analysis (else `400`), the application's number
 * (`409 no_whatsapp_number`), the analysis' hold (`409 suggestions_busy`: held in the store, so two calls never
 * run at once in one process or several); then it marks the keys picked and makes picked ones, oldest pick
 * first, at most `per_call` of them, none started more than 8 s after the call began (by the Effect Clock) but
 * always the first; then gives the hold back, however the call ends.
 */
import { Clock, Effect, Option } from "effect"
import { ChatNetwork } from "../../ports/chat-network.ts"
import { Secrets } from "../../ports/secrets.ts"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { TemplateAnalysesRepo, type TemplateAnalysis } from "../../ports/store/template-suggestions.ts"
import type { Next } from "../accounts/errors.ts"
import { InvalidRequest, notFound } from "../errors.ts"
import { type ApplicationId, isUuid, type Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import type { NetworkTemplate } from "./model.ts"
import { NoWhatsappNumber, SuggestionsBusy, TemplatesUnavailable } from "./errors.ts"
import {
  madeKeys,
  type NewSuggestion,
  nextMadeOrder,
  queueOf,
  suggestionErrors,
  SuggestionLimits,
  type TemplateSuggestion,
  unknownKeys,
  writeOf,
} from "./suggestions.ts"

/** The call a create runs as: where the console is, and the same call again (`next`). */
export interface CreateCall {
  readonly baseUrl: string
  readonly again: Next
}

export interface CreateAnswer {
  readonly data: {
    readonly made: ReadonlyArray<string>
    readonly failed: ReadonlyArray<{ readonly key: string; readonly error: string }>
    readonly remaining: ReadonlyArray<string>
    readonly per_call: number
  }
  readonly next: Next | null
}

const suggestionJson = (s: TemplateSuggestion) => ({
  key: s.key,
  name: s.name,
  category: s.category,
  lang: s.lang,
  body: s.body,
  state: s.state,
  error: s.error,
})

export const analysisJson = (a: TemplateAnalysis) => ({
  id: a.id,
  application_id: a.applicationId,
  suggestions: a.suggestions.map(suggestionJson),
  created_at: isoMillis(a.createdAt),
})

export class TemplateSuggestions extends Effect.Service<TemplateSuggestions>()("core/TemplateSuggestions", {
  effect: Effect.gen(function* () {
    const analyses = yield* TemplateAnalysesRepo
    const network = yield* ChatNetwork
    const secrets = yield* Secrets
    const apps = yield* ApplicationsRepo

    const unavailable = (call: CreateCall) =>
      new TemplatesUnavailable({
        message: "The chat network did not answer; nothing more was made. Make the same call again later.",
        next: call.again,
      })

    /** Console: records an analysis of the application (`{ id }`). */
    const record = Effect.fn("TemplateSuggestions.record", untracedStacks)(
      function* (applicationId: string, suggestions: ReadonlyArray<NewSuggestion>) {
        const app = isUuid(applicationId) ? yield* apps.get(applicationId as ApplicationId) : Option.none()
        if (Option.isNone(app)) return yield* notFound
        const id = yield* secrets.uuid
        yield* analyses.insert({
          id,
          applicationId: app.value.id,
          createdAt: yield* Clock.currentTimeMillis,
          suggestions: suggestions.map((s, position) => ({
            ...s,
            position,
            state: "suggested",
            error: null,
            pickedAt: null,
            madeOrder: null,
          })),
        })
        return { id }
      },
    )

    /** The application's analysis, else `404 not_found` (the account API's 404 step). */
    const analysisOf = (applicationId: string, id: string) =>
      Effect.flatMap(
        isUuid(id) ? analyses.get(applicationId as ApplicationId, id) : Effect.succeedNone,
        Option.match({ onNone: () => Effect.fail(notFound), onSome: Effect.succeed }),
      )

    const show = Effect.fn("TemplateSuggestions.show", untracedStacks)(
      function* (applicationId: string, id: string) {
        return analysisJson(yield* analysisOf(applicationId, id))
      },
    )

    /** Makes what the queue holds within the call's bounds; answers this call's failures. */
    const makeQueued = (analysis: TemplateAnalysis, started: Millis, held: Array<NetworkTemplate>) =>
      Effect.gen(function* () {
        const failed: Array<{ key: string; error: string }> = []
        let order = nextMadeOrder(analysis.suggestions)
        const queue = queueOf(analysis.suggestions).slice(0, SuggestionLimits.perCall)
        for (const [i, s] of queue.entries()) {
          const now = yield* Clock.currentTimeMillis
          if (i > 0 && now - started > SuggestionLimits.startWithinMs) break
          const named = held.filter((t) => t.name === s.name)
          const refusal = named.some((t) => t.lang === s.lang)
            ? suggestionErrors.exists
            : named.length > 0 && named[0].category !== s.category
            ? suggestionErrors.category
            : undefined
          if (refusal !== undefined) {
            failed.push({ key: s.key, error: refusal })
            yield* analyses.settle(analysis.id, { key: s.key, state: "failed", error: refusal, madeOrder: null })
            continue
          }
          const written = yield* Effect.either(network.writeTemplate(analysis.applicationId, writeOf(s), "create"))
          if (written._tag === "Left" && written.left._tag === "ChatTemplateConflict") {
            // The network holds it already (the list read was older): refused as if the read had seen it.
            failed.push({ key: s.key, error: suggestionErrors.exists })
            yield* analyses.settle(analysis.id, {
              key: s.key,
              state: "failed",
              error: suggestionErrors.exists,
              madeOrder: null,
            })
            continue
          }
          if (written._tag === "Left") {
            // Not answered: it stays picked, for a later call; the network is not asked again in this one.
            failed.push({ key: s.key, error: suggestionErrors.unavailable })
            yield* analyses.settle(analysis.id, {
              key: s.key,
              state: "picked",
              error: suggestionErrors.unavailable,
              madeOrder: null,
            })
            break
          }
          held.push({ ...writeOf(s), status: "pending", reason: null })
          yield* analyses.settle(analysis.id, { key: s.key, state: "made", error: null, madeOrder: order++ })
        }
        return failed
      })

    const create = Effect.fn("TemplateSuggestions.create", untracedStacks)(
      function* (applicationId: string, id: string, keys: ReadonlyArray<string>, call: CreateCall) {
        const started = yield* Clock.currentTimeMillis
        const analysis = yield* analysisOf(applicationId, id)
        const unknown = unknownKeys(analysis.suggestions, keys)
        if (unknown.length > 0) {
          const names = unknown.map((i) => `keys[${i}]`)
          return yield* new InvalidRequest({
            message: unknown.length === 1
              ? `\`${names[0]}\` is not a suggestion of this analysis.`
              : `${unknown.length} keys are not suggestions of this analysis.`,
            fields: Object.fromEntries(names.map((n) => [n, "is not a suggestion of this analysis"])),
            errors: Object.fromEntries(names.map((n) => [n, "unknown"])),
          })
        }
        const number = yield* Effect.mapError(network.number(analysis.applicationId), () => unavailable(call))
        if (Option.isNone(number)) {
          const app = yield* apps.get(analysis.applicationId)
          const name = Option.match(app, { onNone: () => "the application", onSome: (a) => a.name })
          return yield* new NoWhatsappNumber({
            message: "The application has no WhatsApp number: templates are made on its number.",
            needs: ["whatsapp_number"],
            human_action: {
              reason: "connect_whatsapp",
              url: `${call.baseUrl}/console/applications/${analysis.applicationId}/whatsapp`,
              say: `Connect a WhatsApp number to ${name} in the console, so its templates can be made.`,
              then: call.again,
            },
          })
        }
        const holder = yield* secrets.uuid
        const taken = yield* analyses.lease(id, holder, started, started + SuggestionLimits.leaseMs)
        if (!taken) {
          return yield* new SuggestionsBusy({
            message: "Another call is making this analysis' suggestions; make the same call again when it ends.",
            next: call.again,
          })
        }
        return yield* Effect.gen(function* () {
          yield* analyses.pick(id, keys, started)
          const picked = yield* analysisOf(applicationId, id)
          const failed = queueOf(picked.suggestions).length === 0 ? [] : yield* Effect.flatMap(
            Effect.mapError(network.templates(picked.applicationId), () => unavailable(call)),
            (held) => makeQueued(picked, started, [...held]),
          )
          const after = yield* analysisOf(applicationId, id)
          const remaining = queueOf(after.suggestions).map((s) => s.key)
          return {
            data: { made: madeKeys(after.suggestions), failed, remaining, per_call: SuggestionLimits.perCall },
            next: remaining.length > 0 ? call.again : null,
          } satisfies CreateAnswer
        }).pipe(Effect.ensuring(analyses.release(id, holder)))
      },
    )

    return { record, analysisOf, show, create } as const
  }),
}) {}
