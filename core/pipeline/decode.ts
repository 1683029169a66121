/**
 * Step 4 from a declared Schema: an operation's input decoded by its Schema, every refused field named in
 * `fields` (`{ name: message }`) and `errors` (`{ name: code }`), as DECISIONS 10 and 7-15 pin for the
 * account API and the products. Names are paths (`buyer.vat_number`, `items[2].sku`); codes are `required`
 * (missing), `unknown` (a field the operation does not take), or the field's own code (a `code` annotation
 * on its Schema: `Schema.String.annotations({ [ErrorCode]: "too_long" })`), else `invalid`.
 */
import { Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import { InvalidRequest, type NotFound, notFound } from "./errors.ts"
import { echo, isStorableText, unstorableMessage } from "../shared/text.ts"
import type { Decoded, Parameter, RawInput } from "./operation.ts"

/** The annotation naming a field's refusal code. */
export const ErrorCode: unique symbol = Symbol.for("sa-messaging/ErrorCode")

/**
 * The annotation of a body that ignores the fields it does not take (the console's, DECISIONS 2, where an unknown
 * field was never refused), and with `nullIsAbsent` reads a top-level `null` as a field not given.
 */
export const Lenient: unique symbol = Symbol.for("sa-messaging/Lenient")
export interface LenientReading {
  readonly nullIsAbsent: boolean
}

/** The annotation of a field refused as one (`ip_allowlist`, not `ip_allowlist[3]`), whatever inside it failed. */
export const OneField: unique symbol = Symbol.for("sa-messaging/OneField")

/** A field's name as a refusal gives it: its path. */
const nameOf = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (name, key) => (typeof key === "number" ? `${name}[${key}]` : name === "" ? String(key) : `${name}.${String(key)}`),
    "",
  )

/** The code of one issue: its Schema's own, else by kind. */
const codeOf = (issue: ParseResult.ParseIssue): string => {
  if (issue._tag === "Missing") return "required"
  if (issue._tag === "Unexpected") return "unknown"
  if ("ast" in issue) {
    const own = SchemaAST.getAnnotation<string>(issue.ast, ErrorCode)
    if (Option.isSome(own)) return own.value
  }
  return "invalid"
}

/**
 * A field's message: the Schema's own where it has one, else the formatter's sentence, which quotes the refused
 * value (`Expected "sms" | "whatsapp", actual "…"`; bounded where it is quoted: `fieldsRefused`, respond.ts).
 */
const messageOf = (issue: ParseResult.ParseIssue): string =>
  issue._tag === "Missing"
    ? "is required"
    : issue._tag === "Unexpected"
    ? "is not a field of this operation"
    : ParseResult.TreeFormatter.formatIssueSync(issue)

/** Every leaf issue with its path (the formatter's own walk, keeping the issue for its code). */
const leaves = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
): Array<{ path: ReadonlyArray<PropertyKey>; issue: ParseResult.ParseIssue }> => {
  if ("ast" in issue && SchemaAST.getAnnotation(issue.ast, OneField).pipe(Option.isSome)) return [{ path, issue }]
  switch (issue._tag) {
    case "Pointer": {
      const keys = Array.isArray(issue.path) ? issue.path : [issue.path]
      return leaves(issue.issue, [...path, ...keys])
    }
    case "Composite": {
      const issues: ReadonlyArray<ParseResult.ParseIssue> = Array.isArray(issue.issues)
        ? issue.issues
        : [issue.issues as ParseResult.ParseIssue]
      // A union (an optional or nullable object, say) that failed inside one of its members: the member's
      // own refusals name the field, not "it is not undefined / not null" beside them.
      const inner = SchemaAST.isUnion(issue.ast) ? issues.filter((i) => i._tag !== "Type") : []
      return (inner.length > 0 ? inner : issues).flatMap((i) => leaves(i, path))
    }
    case "Refinement":
      // A refinement's own predicate refused the value: the field's code (kept on the refinement's AST).
      return issue.kind === "Predicate" ? [{ path, issue }] : leaves(issue.issue, path)
    case "Transformation":
      return issue.kind === "Transformation" ? [{ path, issue }] : leaves(issue.issue, path)
    default:
      return [{ path, issue }]
  }
}

/**
 * A decoder from a Schema: `Right` with the decoded input, or `Left` with one `400 invalid_request` naming
 * every refused field. `onExcessProperty: "error"` makes a field the operation does not take `unknown`.
 */
export const decodeWith = <A, I>(schema: Schema.Schema<A, I>) => {
  const lenient = SchemaAST.getAnnotation<LenientReading>(schema.ast, Lenient).pipe(Option.getOrUndefined)
  const decode = Schema.decodeUnknownEither(schema, {
    errors: "all",
    onExcessProperty: lenient === undefined ? "error" : "ignore",
  })
  // `Schema.Struct({})` is TypeScript's `{}`: it takes any object, extra properties included. An operation
  // that takes no fields must still refuse every one.
  const noFields = lenient === undefined && takesNoFields(schema)
  const withoutNulls = lenient?.nullIsAbsent === true
  return (given: unknown): Either.Either<A, InvalidRequest> => {
    const input = withoutNulls ? nullsDropped(given) : given
    if (noFields && typeof input === "object" && input !== null && !Array.isArray(input)) {
      const extra = Object.keys(input)
      if (extra.length > 0) {
        return Either.left(fieldsRefused(
          Object.fromEntries(extra.map((k) => [k, "is not a field of this operation"])),
          Object.fromEntries(extra.map((k) => [k, "unknown"])),
        ))
      }
    }
    return Either.mapLeft(decode(input), (error) => {
      const fields: Record<string, string> = {}
      const errors: Record<string, string> = {}
      for (const { path, issue } of leaves(error.issue, [])) {
        const name = nameOf(path) || "body"
        if (name in errors) continue
        errors[name] = codeOf(issue)
        fields[name] = messageOf(issue)
      }
      return fieldsRefused(fields, errors)
    })
  }
}

/** An object without its top-level `null` fields (the object itself when it has none). */
const nullsDropped = (input: unknown): unknown => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input
  const entries = Object.entries(input)
  return entries.some(([, v]) => v === null) ? Object.fromEntries(entries.filter(([, v]) => v !== null)) : input
}

/**
 * `400 invalid_request` naming every refused field (`fields` {name: message}, `errors` {name: code}); its
 * message quotes the one field, or counts them. A name or message is the caller's text in part: the message
 * quotes at most `Http.maxEchoChars` of each (DECISIONS 18), and respond.ts bounds `fields` and `errors` as it
 * renders any refusal.
 */
export const fieldsRefused = (fields: Record<string, string>, errors: Record<string, string>): InvalidRequest => {
  const names = Object.keys(errors)
  return new InvalidRequest({
    message: names.length === 1
      ? `\`${echo(names[0])}\` ${echo(fields[names[0]])}`
      : `${names.length} fields are refused.`,
    fields,
    errors,
  })
}

/** Whether a Schema is TypeScript's `{}` (`Schema.Struct({})`): an input of no field, which takes any object. */
export const takesNoFields = (schema: Schema.Schema.Any): boolean =>
  SchemaAST.isTypeLiteral(schema.ast) && schema.ast.propertySignatures.length === 0 &&
  schema.ast.indexSignatures.length === 0

/**
 * A query string decoded by its Schema: each parameter once (one given twice is `invalid`: which one was meant
 * is unknown), then the Schema (an unknown parameter is `unknown`).
 */
export const decodeQueryWith = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = decodeWith(schema)
  return (query: URLSearchParams): Either.Either<A, InvalidRequest> => {
    const seen = new Set<string>()
    const repeated = new Set<string>()
    for (const name of query.keys()) (seen.has(name) ? repeated : seen).add(name)
    if (repeated.size === 0) return decode(Object.fromEntries(query))
    const names = [...repeated]
    return Either.left(fieldsRefused(
      Object.fromEntries(names.map((n) => [n, "is given more than once"])),
      Object.fromEntries(names.map((n) => [n, "invalid"])),
    ))
  }
}

const noQuery: Readonly<Record<string, unknown>> = Object.freeze({})

/**
 * The decoder an operation gets when it declares none (core/pipeline/operation.ts): each path value by its
 * parameter's Schema (one it refuses, or text no store can hold, names nothing: `404 not_found`), the declared
 * query parameters by theirs and the body by its Schema (`400 invalid_request` naming every refused field of
 * either). A query parameter the operation does not declare is ignored, as it always was; except where the
 * query is recorded (`storeQuery`: an account operation's approval and audit keep it), there a name or value no
 * store can hold is refused too. Built once per operation; a request allocates its input and little else.
 */
export const decodeInput = (
  body: Schema.Schema.Any | undefined,
  parameters: ReadonlyArray<Parameter<string, Schema.Schema.Any>>,
  storeQuery: boolean,
): (raw: RawInput) => Either.Either<Decoded<any, any>, InvalidRequest | NotFound> => {
  const decodeBody = body === undefined ? undefined : decodeWith(body as Schema.Schema<unknown, unknown>)
  const path = parameters.filter((p) => p.in === "path").map((p) => ({
    name: p.name,
    decode: Schema.decodeUnknownEither(p.schema as Schema.Schema<unknown, unknown>),
  }))
  const declared = parameters.filter((p) => p.in === "query")
  const queryNames = declared.map((p) => p.name)
  const decodeQuery = declared.length === 0 ? undefined : decodeWith(
    Schema.Struct(
      Object.fromEntries(declared.map((p) => [p.name, p.required ? p.schema : Schema.optional(p.schema)])),
    ) as unknown as Schema.Schema<unknown, unknown>,
  )
  return (raw) => {
    for (const p of path) {
      const value = raw.params[p.name]
      if (value === undefined || !isStorableText(value) || Either.isLeft(p.decode(value))) return Either.left(notFound)
    }
    let refused: InvalidRequest | undefined
    let query = noQuery
    if (decodeQuery !== undefined || storeQuery) {
      const given = queryOf(raw.query, storeQuery ? undefined : queryNames)
      if (given instanceof InvalidRequest) refused = given
      else if (decodeQuery !== undefined) {
        const decoded = decodeQuery(given)
        if (Either.isLeft(decoded)) refused = decoded.left
        else query = decoded.right as Record<string, unknown>
      }
    }
    let decodedBody: unknown = undefined
    if (decodeBody !== undefined) {
      const decoded = decodeBody(raw.body ?? {})
      if (Either.isLeft(decoded)) refused = refused === undefined ? decoded.left : both(refused, decoded.left)
      else decodedBody = decoded.right
    }
    if (refused !== undefined) return Either.left(refused)
    return Either.right({ body: decodedBody, params: raw.params, query, raw })
  }
}

/**
 * The query's parameters named in `names` (every one when undefined), each given once and storable, as an
 * object of strings; or the refusal naming those given twice or holding text no store can hold.
 */
const queryOf = (
  query: URLSearchParams,
  names: ReadonlyArray<string> | undefined,
): Record<string, string> | InvalidRequest => {
  const out: Record<string, string> = {}
  let fields: Record<string, string> | undefined
  for (const [name, value] of query) {
    if (names !== undefined && !names.includes(name)) continue
    const why = !isStorableText(name) || !isStorableText(value)
      ? unstorableMessage
      : Object.prototype.hasOwnProperty.call(out, name)
      ? "is given more than once"
      : undefined
    if (why !== undefined) (fields ??= {})[isStorableText(name) ? name : JSON.stringify(name).slice(1, -1)] = why
    else out[name] = value
  }
  return fields === undefined
    ? out
    : fieldsRefused(fields, Object.fromEntries(Object.keys(fields).map((n) => [n, "invalid"])))
}

/** One refusal naming the fields of two. */
const both = (a: InvalidRequest, b: InvalidRequest): InvalidRequest =>
  fieldsRefused(
    { ...(a.fields as Record<string, string>), ...(b.fields as Record<string, string>) },
    { ...(a.errors as Record<string, string>), ...(b.errors as Record<string, string>) },
  )
