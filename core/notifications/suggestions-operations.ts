/**
 * Template suggestions' operations (DECISIONS 10, 14): the console records an analysis; the account API shows
 * it (every role) and creates the picked suggestions (owners and admins), answering `{ data, next }`.
 */
import { Either, Schema } from "effect"
import { everyRole, ownerOrAdmin } from "../accounts/callers.ts"
import { Next } from "../accounts/errors.ts"
import { applicationParameter, consoleCaller, consoleCreated } from "../console/operations.ts"
import { InvalidRequest, NotFound, notFound } from "../errors.ts"
import { concretePath } from "../pipeline/account.ts"
import { ErrorCode } from "../pipeline/decode.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { isUuid } from "../shared/brands.ts"
import { consoleBody } from "../shared/fields.ts"
import { NoWhatsappNumber, SuggestionsBusy, TemplatesUnavailable } from "./errors.ts"
import { templateCategories } from "./model.ts"
import { newSuggestions, SuggestionLimits, suggestionStates } from "./suggestions.ts"
import { TemplateSuggestions } from "./suggestions-service.ts"

const accountApplication: Parameter = {
  name: "application",
  in: "path",
  description: "An application of the token's account",
  schema: Schema.UUID,
  required: true,
}
const analysisParameter: Parameter = {
  name: "analysis",
  in: "path",
  description: "The analysis id (a reading of the business, recorded in the console)",
  schema: Schema.UUID,
  required: true,
}

const suggestionFields = {
  key: Schema.String.annotations({ description: "1 to 512 characters, unique in the analysis" }),
  name: Schema.String.annotations({ description: "`^[a-z0-9_]{1,512}$`" }),
  category: Schema.Literal(...templateCategories),
  lang: Schema.String.annotations({ description: "`^[a-z]{2,3}(_[A-Z]{2})?$`, e.g. `ar`, `en_US`" }),
  body: Schema.String.annotations({ description: "1 to 1,024 characters; `{{name}}` or `{{1}}` placeholders" }),
}

export const AnalysisOutput = Schema.Struct({
  id: Schema.UUID,
  application_id: Schema.UUID,
  suggestions: Schema.Array(Schema.Struct({
    ...suggestionFields,
    state: Schema.Literal(...suggestionStates).annotations({
      description: "suggested, picked (asked for, not made yet), made (on the network, pending review), " +
        "failed (refused: see error; picking it again retries it)",
    }),
    error: Schema.NullOr(Schema.String).annotations({
      description: "template_exists, template_category_mismatch (failed); templates_unavailable (still picked)",
    }),
  })),
  created_at: Schema.String,
}).annotations({ identifier: "TemplateAnalysis" })

const tooLong = (max: number, what: string) => ({ [ErrorCode]: "too_long", message: () => `at most ${max} ${what}` })

export const CreateBody = Schema.Struct({
  keys: Schema.Array(
    Schema.String.pipe(Schema.maxLength(SuggestionLimits.keyMax, tooLong(SuggestionLimits.keyMax, "characters"))),
  ).pipe(
    Schema.minItems(1),
    Schema.maxItems(SuggestionLimits.keysPerCall, tooLong(SuggestionLimits.keysPerCall, "keys")),
  ).annotations({ description: "1 to 6 suggestion keys of the analysis to pick, each at most 512 characters" }),
})

export const CreateOutput = Schema.Struct({
  data: Schema.Struct({
    made: Schema.Array(Schema.String).annotations({ description: "Every key made so far, earlier calls' too" }),
    failed: Schema.Array(Schema.Struct({ key: Schema.String, error: Schema.String })).annotations({
      description: "This call's failures",
    }),
    remaining: Schema.Array(Schema.String).annotations({ description: "Keys picked and not made yet" }),
    per_call: Schema.Literal(SuggestionLimits.perCall),
  }),
  next: Schema.NullOr(Next).annotations({ description: "The same call again, while `remaining` is not empty" }),
}).annotations({ identifier: "TemplateSuggestionsCreated" })

const suggestionsPath = "/v1/applications/{application}/chatmsg/template-suggestions/{analysis}"
const createName = "whatsapp.template_suggestions.create"
const createPath = `${suggestionsPath}/create`

export const templateSuggestionsOperations = [
  operation({
    name: "whatsapp.template_suggestions.show",
    summary: "An analysis of the business: the templates it suggests, each with its state.",
    method: "GET",
    path: suggestionsPath,
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [accountApplication, analysisParameter],
    body: undefined,
    output: AnalysisOutput,
    returns: "The analysis: id, application_id, created_at and its suggestions, each with key, name, category, " +
      "lang, body, state (suggested, picked, made, failed) and error.",
    errors: [NotFound],
    idempotent: false,
    service: TemplateSuggestions,
    locate: (t, _, params) => t.analysisOf(params.application ?? "", params.analysis ?? ""),
    run: (t, _, input) => t.show(input.params.application, input.params.analysis),
  }),
  operation({
    name: createName,
    summary: "Picks suggestions of an analysis by key and makes picked ones on the chat network, oldest pick " +
      "first, at most 3 a call; `next` repeats the call while some remain.",
    method: "POST",
    path: createPath,
    caller: ownerOrAdmin,
    // `next` sits beside `data`: the use case answers the whole body.
    answer: { status: 200, envelope: "bare" },
    parameters: [accountApplication, analysisParameter],
    body: CreateBody,
    output: CreateOutput,
    returns: "{ data: { made (every key made, earlier calls' too), failed (this call's, each with its error), " +
      "remaining (picked, not made yet), per_call: 3 }, next }: next repeats the call while remaining is not empty.",
    errors: [NotFound, InvalidRequest, NoWhatsappNumber, SuggestionsBusy, TemplatesUnavailable],
    idempotent: true,
    service: TemplateSuggestions,
    locate: (t, _, params) => t.analysisOf(params.application ?? "", params.analysis ?? ""),
    run: (t, _, input) =>
      t.create(input.params.application, input.params.analysis, input.body.keys, {
        baseUrl: input.raw.baseUrl,
        again: { operation: createName, method: "POST", path: concretePath(createPath, input.params) },
      }),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

export const templateSuggestionsConsoleOperations = [
  operation({
    name: "console.template_analyses.create",
    summary: "Records an analysis of an application's business: the templates it suggests, each under a key.",
    method: "POST",
    path: "/console/v1/applications/{application}/template-analyses",
    caller: consoleCaller,
    answer: consoleCreated,
    parameters: [applicationParameter],
    body: consoleBody({ suggestions: Schema.Array(Schema.Struct(suggestionFields)) }),
    decode: ({ body, params }) => {
      // An id in the path that cannot be one names nothing, whatever the body.
      if (!isUuid(params.application)) return Either.left(notFound)
      const given = (body ?? {}) as Readonly<Record<string, unknown>>
      return Either.mapBoth(newSuggestions(given.suggestions), {
        onLeft: (refused) => new InvalidRequest({ message: "The analysis is not valid.", ...refused }),
        onRight: (suggestions) => ({ application: params.application ?? "", suggestions }),
      })
    },
    output: Schema.Struct({ id: Schema.UUID }),
    errors: [NotFound, InvalidRequest],
    idempotent: false,
    service: TemplateSuggestions,
    run: (t, _, input) => t.record(input.application, input.suggestions),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
