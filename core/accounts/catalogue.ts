/**
 * The operation catalogue of the account API (DECISIONS 10, 16): `GET /v1/operations` lists every account
 * operation with its input as JSON Schema 2020-12 generated from its declared Schemas, and `POST
 * /v1/operations/{name}` calls one by name with one flat object of its path, query and body fields, answering
 * exactly as its route would (approval and idempotency included).
 */
import { Effect, Either, JSONSchema, Schema } from "effect"
import { Approvals } from "../approvals/service.ts"
import { InvalidRequest, UnknownOperation } from "../errors.ts"
import { Lists } from "../limits.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { AccountCatalogue } from "../pipeline/catalogue.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { fieldsRefused, takesNoFields } from "../pipeline/decode.ts"
import { type AnyOperation, operation, type RawInput } from "../pipeline/operation.ts"
import type { ApiAnswer, ApiRequest } from "../pipeline/request.ts"
import type { Json } from "../shared/json.ts"
import { echo } from "../shared/text.ts"
import { everyRole } from "./callers.ts"
import { decodeQuery, listParameters, ListQuery, page, PageOf } from "./lists.ts"

/** Edit distance (insertions, deletions, substitutions) between two names. */
export const levenshtein = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]
}

/**
 * `did_you_mean` (DECISIONS 10, 16): up to 3 catalogue names, closest first (edit distance, then name), among
 * those at most 3 edits away or containing the typed name; else none.
 */
export const didYouMean = (typed: string, names: ReadonlyArray<string>): Array<string> =>
  names
    .map((name) => ({ name, distance: levenshtein(typed, name) }))
    .filter(({ name, distance }) => distance <= 3 || (typed !== "" && name.includes(typed)))
    .sort((x, y) => x.distance - y.distance || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .slice(0, 3)
    .map(({ name }) => name)

export const unknownOperation = (typed: string, names: ReadonlyArray<string>) => {
  const suggestions = didYouMean(typed, names)
  return new UnknownOperation({
    message: `No account operation is named "${echo(typed)}".` +
      (suggestions.length > 0 ? ` Did you mean ${suggestions.join(", ")}?` : " `GET /v1/operations` lists them."),
    did_you_mean: suggestions,
  })
}

/** The fields of a body Schema, if it is a struct (every account operation's body is one). */
const bodyFields = (op: AnyOperation): Schema.Struct.Fields =>
  op.body !== undefined && "fields" in op.body ? (op.body as unknown as Schema.Struct<Schema.Struct.Fields>).fields : {}

/** The flat input of an operation, as one struct: path and query parameters and body fields side by side. */
export const flatInputSchema = (op: AnyOperation): Schema.Schema<any, any> => {
  const fields: Record<string, Schema.Schema.All | Schema.PropertySignature.All> = {}
  for (const p of op.parameters) {
    const described = p.schema.annotations({ description: p.description })
    fields[p.name] = p.required ? described : Schema.optional(described)
  }
  return Schema.Struct({ ...fields, ...bodyFields(op) } as Schema.Struct.Fields) as unknown as Schema.Schema<any, any>
}

/**
 * JSON Schema 2020-12 of the flat input, generated from the declared Schemas (never written by hand). An
 * operation that takes no field is the empty object (DECISIONS 16: the schema describes the flat input object),
 * not the generator's `anyOf [object, array]` for TypeScript's `{}`: the server refuses an array and every field.
 */
export const inputJsonSchema = (op: AnyOperation): unknown => {
  const flat = flatInputSchema(op)
  if (takesNoFields(flat)) {
    return {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      required: [],
      properties: {},
      additionalProperties: false,
    }
  }
  const { $schema: _, ...schema } = JSONSchema.make(flat, { target: "jsonSchema2020-12" })
  return { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema }
}

/**
 * A flat input split as the route would have it: path parameters, query parameters (as their text), and
 * the rest as the body. An operation that reads no body refuses every other field (`unknown`). A path
 * parameter missing or not a string fails at once (no record can be looked up without it); the other refusals
 * come as `refused`, for after the 404 step (DECISIONS 10).
 */
export const splitFlatInput = (
  op: AnyOperation,
  flat: Json,
): Effect.Effect<
  {
    params: Record<string, string>
    query: URLSearchParams
    body: Json | undefined
    refused: InvalidRequest | undefined
  },
  InvalidRequest
> => {
  const params: Record<string, string> = {}
  const query = new URLSearchParams()
  const body: Record<string, unknown> = { ...flat }
  const fields: Record<string, string> = {}
  const errors: Record<string, string> = {}
  let pathRefused = false
  for (const p of op.parameters) {
    const value = body[p.name]
    delete body[p.name]
    if (value === undefined || value === null) {
      if (p.in === "path") (fields[p.name] = "is required", errors[p.name] = "required", pathRefused = true)
      continue
    }
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      fields[p.name] = "must be a string"
      errors[p.name] = "invalid"
      if (p.in === "path") pathRefused = true
      continue
    }
    if (p.in === "path") params[p.name] = String(value)
    else query.set(p.name, String(value))
  }
  if (op.body === undefined) {
    for (const name of Object.keys(body)) {
      fields[name] = "is not a field of this operation"
      errors[name] = "unknown"
    }
  }
  const names = Object.keys(errors)
  const refused = names.length === 0 ? undefined : fieldsRefused(fields, errors)
  if (refused !== undefined && pathRefused) return Effect.fail(refused)
  return Effect.succeed({ params, query, body: op.body === undefined ? undefined : body as Json, refused })
}

/**
 * Calls an account operation by name for a principal (built with the route table, which holds every operation):
 * an unknown name is `404 unknown_operation` before the body is read.
 */
export type CallByName = (
  p: AccountPrincipal,
  name: string,
  req: ApiRequest,
) => Effect.Effect<ApiAnswer, unknown, any>

export const CatalogueRow = Schema.Struct({
  name: Schema.String,
  method: Schema.String,
  path: Schema.String,
  input_schema: Schema.Unknown,
  output: Schema.String,
  requires_approval: Schema.Boolean,
  idempotent: Schema.Boolean,
  roles: Schema.Array(Schema.String),
}).annotations({ identifier: "OperationCatalogueRow" })

/** The catalogue's rows for an account (its approval policy decides `requires_approval`). */
export class OperationsCatalogue extends Effect.Service<OperationsCatalogue>()("core/OperationsCatalogue", {
  effect: Effect.gen(function* () {
    const catalogue = yield* AccountCatalogue
    const approvals = yield* Approvals
    const cursors = yield* makeCursors
    /** Every account operation but the call by name itself, which is how the others are called. */
    const listed = catalogue.operations.filter((op) => op.name !== callByNameOperation.name)
    const schemas = new Map(listed.map((op) => [op.name, inputJsonSchema(op)]))
    const list = (p: AccountPrincipal, q: typeof ListQuery.Type) =>
      Effect.gen(function* () {
        let from = 0
        if (q.cursor !== undefined) {
          const position = cursors.read("operations", p.account.id, q.cursor)
          if (Either.isLeft(position)) return yield* position.left
          from = Number(position.right[0])
        }
        const limit = q.limit ?? Lists.defaultLimit
        const policy = yield* approvals.policy(p.account.id)
        const rows = listed.slice(from, from + limit).map((op) => ({
          name: op.name,
          method: op.method,
          path: op.path,
          input_schema: schemas.get(op.name),
          output: op.returns ?? op.summary,
          requires_approval: policy.includes(op.name),
          idempotent: op.repeatable ?? true,
          roles: [...(op.caller as { roles: ReadonlyArray<string> }).roles],
        }))
        const next = from + limit < listed.length ? cursors.make("operations", p.account.id, [from + limit]) : null
        return page(rows, next)
      })
    return { list } as const
  }),
}) {}

export const operationsListOperation = operation({
  name: "operations.list",
  summary: "The account API's operations: name, method, path, input as JSON Schema 2020-12, roles, approval.",
  returns: "A page of catalogue rows: every account operation this token may call by route or by name.",
  method: "GET",
  path: "/v1/operations",
  caller: everyRole,
  answer: { status: 200, envelope: "data" },
  parameters: listParameters,
  body: undefined,
  decode: decodeQuery(ListQuery),
  output: PageOf(CatalogueRow),
  errors: [],
  idempotent: false,
  service: OperationsCatalogue,
  run: (c, p, q: typeof ListQuery.Type) => c.list(p, q),
})

/**
 * `POST /v1/operations/{name}`: declared here for the document and the catalogue's order of checks; the route
 * table builds its handler, which runs the named operation's own steps (core/pipeline/checks.ts `callByName`).
 */
export const callByNameOperation = operation({
  name: "operations.call",
  summary: "Calls an account operation by name with one flat object of its path, query and body fields.",
  returns: "What the named operation's route answers.",
  method: "POST",
  path: "/v1/operations/{name}",
  caller: everyRole,
  answer: { status: 200, envelope: "data" },
  parameters: [{
    name: "name",
    in: "path",
    description: "An operation name of `GET /v1/operations`",
    schema: Schema.String,
    required: true,
  }],
  body: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  decode: (r): Either.Either<RawInput, InvalidRequest> => Either.right(r),
  output: Schema.Unknown,
  errors: [UnknownOperation],
  idempotent: true,
  service: AccountCatalogue,
  run: (): Effect.Effect<unknown> => Effect.die("operations.call runs in the route table (core/pipeline/checks.ts)"),
})
