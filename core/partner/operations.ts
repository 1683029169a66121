/**
 * The Partner API's client-application operations (DECISIONS 13): partner keys of either mode, objects bare,
 * lists `{ data, next_cursor }`, provisioning `201`. `applicationOperations` is spread into the partner
 * module's list beside the other Partner API operations; the logo route needs no key.
 */
import { Effect, Either, Option, Schema } from "effect"
import { InvalidRequest, InvalidState, NotAppealable, NotFound, notFound, ServiceNotFound } from "../errors.ts"
import { Lists, PartnerLimits } from "../limits.ts"
import { settingsFields } from "../verify/settings.ts"
import { decodeQueryWith, decodeWith, ErrorCode } from "../pipeline/decode.ts"
import { type AnyOperation, operation, type Parameter, type RawInput } from "../pipeline/operation.ts"
import { withoutControlCharacters } from "../shared/names.ts"
import { codePointLength, isStorableText } from "../shared/text.ts"
import { ExternalIdTaken } from "./application-errors.ts"
import { type BulkAction, type LogoInput, PartnerApplications } from "./applications.ts"
import { lifecycleStatuses, type Move } from "./lifecycle.ts"
import { contentTypes, parseLogo } from "./logos.ts"
import { PartnerApplication } from "./record.ts"

const partner = { _tag: "Partner" } as const
const created = { status: 201, envelope: "bare" } as const
const done = { status: 200, envelope: "bare" } as const

/** Text of at most `max` characters (code points): longer is `too_long`; empty or blank is `invalid`. */
const Text = (max: number, description: string) =>
  Schema.String.pipe(
    Schema.filter((s) => s.trim() !== "" || "must not be empty"),
    Schema.filter((s) => codePointLength(s) <= max, {
      [ErrorCode]: "too_long",
      message: () => `at most ${max} characters`,
      jsonSchema: { maxLength: max },
    }),
  ).annotations({ description })

const isWebsite = (s: string): boolean => {
  if (!/^https?:\/\//i.test(s)) return false
  try {
    const url = new URL(s)
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
  } catch {
    return false
  }
}

const Name = withoutControlCharacters(
  Text(PartnerLimits.maxNameLength, "The merchant's name, 1 to 100 characters, without control characters"),
)
const Website = Text(PartnerLimits.maxWebsiteLength, "The merchant's website: an http or https URL").pipe(
  Schema.filter((s) => isWebsite(s) || "must be an http or https URL"),
)
const ExternalId = Text(
  PartnerLimits.maxExternalIdLength,
  "The partner's own id of the merchant, at most 255 characters, unique among the partner's applications",
)

/** A logo: `errors.logo` is `not_data_url`, `too_large` or `type` (the bytes are not the label's, or no image). */
const refusedAs = (code: "not_data_url" | "too_large" | "type") => (s: string) => {
  const parsed = parseLogo(s)
  return parsed._tag === "Logo" || parsed.code !== code || parsed.message
}
const Logo = Schema.String.pipe(
  Schema.filter(refusedAs("not_data_url"), { [ErrorCode]: "not_data_url" }),
  Schema.filter(refusedAs("too_large"), { [ErrorCode]: "too_large" }),
  Schema.filter(refusedAs("type"), { [ErrorCode]: "type" }),
).annotations({
  description:
    "A base64 data URL of a PNG, JPEG or WebP image, at most 512 KiB decoded and 16,777,216 pixels (width × height): `data:image/png;base64,…`",
})
const logoOf = (s: string): LogoInput => {
  const parsed = parseLogo(s)
  if (parsed._tag !== "Logo") throw new Error("a refused logo was decoded")
  return { ext: parsed.ext, bytes: parsed.bytes }
}

const SettingsInput = Schema.Struct(settingsFields).annotations({
  description: "Any of the six Verify settings; the others keep their values",
})

const CreateBody = Schema.Struct({
  name: Name,
  website: Website,
  external_id: Schema.optional(ExternalId),
  logo: Schema.optional(Schema.NullOr(Logo)),
  verify_settings: Schema.optional(SettingsInput),
})
const UpdateBody = Schema.Struct({
  name: Schema.optional(Name),
  website: Schema.optional(Website),
  external_id: Schema.optional(Schema.NullOr(ExternalId)),
  verify_settings: Schema.optional(SettingsInput),
})
const NoBody = Schema.Struct({})
const AppealBody = Schema.Struct({
  message: Schema.optional(
    Schema.String.pipe(Schema.filter((s) => codePointLength(s) <= PartnerLimits.maxAppealLength, {
      [ErrorCode]: "too_long",
      message: () => `at most ${PartnerLimits.maxAppealLength} characters`,
    })),
  ),
})
const LogoBody = Schema.Struct({ logo: Logo })
const bulkActions = ["disable", "resume", "archive", "restore"] as const
const BulkBody = Schema.Struct({
  action: Schema.Literal(...bulkActions),
  ids: Schema.Array(Schema.String).pipe(
    Schema.minItems(1),
    Schema.maxItems(PartnerLimits.maxBulkIds, {
      [ErrorCode]: "too_many",
      message: () => `at most ${PartnerLimits.maxBulkIds} ids`,
    }),
  ).annotations({ description: "1 to 100 application ids, each once" }),
})
/** A query parameter's text: no NUL or unpaired surrogate, which no store can hold (`invalid`). */
const QueryText = Schema.String.pipe(
  Schema.filter((q) => isStorableText(q) || "must not contain NUL or unpaired surrogates"),
)
const ListQuery = Schema.Struct({
  status: Schema.optional(Schema.Literal(...lifecycleStatuses)),
  external_id: Schema.optional(QueryText),
  q: Schema.optional(QueryText.pipe(Schema.filter((q) => codePointLength(q) <= PartnerLimits.maxQueryLength, {
    [ErrorCode]: "too_long",
    message: () => `at most ${PartnerLimits.maxQueryLength} characters`,
  }))),
  limit: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, Lists.maxLimit)),
  ),
  cursor: Schema.optional(Schema.String),
})

const decodeCreate = decodeWith(CreateBody)
const decodeUpdate = decodeWith(UpdateBody)
const decodeNone = decodeWith(NoBody)
const decodeAppeal = decodeWith(AppealBody)
const decodeLogo = decodeWith(LogoBody)
const decodeBulk = decodeWith(BulkBody)
const decodeList = decodeQueryWith(ListQuery)

const idParameter: Parameter = {
  name: "id",
  in: "path",
  description: "A client application's id",
  schema: Schema.String,
  required: true,
}
const query = (name: string, description: string, schema: Schema.Schema<any, any> = Schema.String): Parameter => ({
  name,
  in: "query",
  description,
  schema,
  required: false,
})

/** A move of the lifecycle by its route: `{}` in, the record out. */
/** The moves with an operation of their own: refused, if at all, with `409 invalid_state`. */
type PlainMove = Extract<Move, { readonly _tag: "Disable" | "Resume" | "Archive" | "Restore" }>

const moveOperation = <const Name extends string, const Path extends string>(
  name: Name,
  path: Path,
  summary: string,
  m: PlainMove,
) =>
  operation({
    name,
    summary,
    method: "POST",
    path,
    caller: partner,
    answer: done,
    parameters: [idParameter],
    body: NoBody,
    decode: (r: RawInput) => Either.map(decodeNone(r.body ?? {}), () => ({ id: r.params.id, baseUrl: r.baseUrl })),
    output: PartnerApplication,
    errors: [InvalidRequest, ServiceNotFound, InvalidState],
    idempotent: true,
    service: PartnerApplications,
    run: (s, p, input: { id: string; baseUrl: string }) => s.move(p, input.id, m, input.baseUrl),
  })

const BulkResult = Schema.Union(
  Schema.Struct({ id: Schema.String, ok: Schema.Literal(true), application: PartnerApplication }),
  Schema.Struct({
    id: Schema.String,
    ok: Schema.Literal(false),
    error: Schema.String,
    status: Schema.optional(Schema.String),
  }),
)

/** Duplicate ids (UUIDs in any case are one id): each later one is `ids[i]` `duplicate`. */
const duplicates = (ids: ReadonlyArray<string>): InvalidRequest | undefined => {
  const seen = new Set<string>()
  const fields: Record<string, string> = {}
  const errors: Record<string, string> = {}
  ids.forEach((id, i) => {
    const key = id.toLowerCase()
    if (seen.has(key)) {
      fields[`ids[${i}]`] = "is given more than once"
      errors[`ids[${i}]`] = "duplicate"
    }
    seen.add(key)
  })
  const names = Object.keys(errors)
  return names.length === 0 ? undefined : new InvalidRequest({
    message: names.length === 1 ? `\`${names[0]}\` is given more than once.` : `${names.length} ids are repeated.`,
    fields,
    errors,
  })
}

const Record = PartnerApplication
const base = "/v1/partner/applications"

export const applicationOperations = [
  operation({
    name: "partner.applications.create",
    summary: "Provisions a client application (Verify) for a merchant: `pending` until the console approves it.",
    method: "POST",
    path: base,
    caller: partner,
    answer: created,
    parameters: [],
    body: CreateBody,
    decode: (r: RawInput) =>
      Either.map(decodeCreate(r.body ?? {}), (b) => ({
        name: b.name,
        website: b.website,
        externalId: b.external_id,
        logo: b.logo == null ? null : logoOf(b.logo),
        settings: b.verify_settings,
        baseUrl: r.baseUrl,
      })),
    output: Record,
    errors: [InvalidRequest, ExternalIdTaken],
    idempotent: true,
    service: PartnerApplications,
    run: (s, p, input) => s.provision(p, input),
  }),
  operation({
    name: "partner.applications.list",
    summary: "The partner's client applications, newest first; archived ones only with `status=archived`.",
    method: "GET",
    path: base,
    caller: partner,
    answer: done,
    parameters: [
      query("status", "pending, active, rejected, suspended or archived (default: every status but archived)"),
      query("external_id", "Exactly this external_id"),
      query("q", "Part of the name or external_id (any case), or an application id; at most 100 characters"),
      query("limit", `1 to ${Lists.maxLimit}; default ${Lists.defaultLimit}`),
      query("cursor", "A `next_cursor` as answered"),
    ],
    body: undefined,
    decode: (r: RawInput) => Either.map(decodeList(r.query), (q) => ({ ...q, baseUrl: r.baseUrl })),
    output: Schema.Struct({ data: Schema.Array(Record), next_cursor: Schema.NullOr(Schema.String) }),
    errors: [InvalidRequest],
    idempotent: false,
    service: PartnerApplications,
    run: (s, p, input) => s.list(p, input),
  }),
  // Before `{id}`: the router takes the first route that matches.
  operation({
    name: "partner.applications.bulk",
    summary: "Disables, resumes, archives or restores up to 100 client applications, each its own move, in order.",
    method: "POST",
    path: `${base}/bulk`,
    caller: partner,
    answer: done,
    parameters: [],
    body: BulkBody,
    decode: (r: RawInput) =>
      Either.flatMap(decodeBulk(r.body ?? {}), (b) => {
        const repeated = duplicates(b.ids)
        return repeated === undefined
          ? Either.right({ action: b.action as BulkAction, ids: b.ids, baseUrl: r.baseUrl })
          : Either.left(repeated)
      }),
    output: Schema.Struct({ data: Schema.Array(BulkResult) }),
    errors: [InvalidRequest],
    idempotent: true,
    service: PartnerApplications,
    run: (s, p, input) => s.bulk(p, input),
  }),
  operation({
    name: "partner.applications.show",
    summary: "One client application.",
    method: "GET",
    path: `${base}/{id}`,
    caller: partner,
    answer: done,
    parameters: [idParameter],
    body: undefined,
    decode: (r: RawInput) => Either.right({ id: r.params.id, baseUrl: r.baseUrl }),
    output: Record,
    errors: [ServiceNotFound],
    idempotent: false,
    service: PartnerApplications,
    run: (s, p, input) => s.show(p, input),
  }),
  operation({
    name: "partner.applications.update",
    summary:
      "Updates the name, website, external_id or Verify settings; a new name or website on an active or rejected application sends it back to review (not on a rejection that may not be appealed: 409 not_appealable).",
    method: "POST",
    path: `${base}/{id}`,
    caller: partner,
    answer: done,
    parameters: [idParameter],
    body: UpdateBody,
    decode: (r: RawInput) =>
      Either.map(decodeUpdate(r.body ?? {}), (b) => ({
        id: r.params.id,
        name: b.name,
        website: b.website,
        externalId: b.external_id,
        settings: b.verify_settings,
        baseUrl: r.baseUrl,
      })),
    output: Record,
    errors: [InvalidRequest, ServiceNotFound, InvalidState, NotAppealable, ExternalIdTaken],
    idempotent: true,
    service: PartnerApplications,
    run: (s, p, input) => s.update(p, input),
  }),
  moveOperation(
    "partner.applications.disable",
    `${base}/{id}/disable`,
    "Switches an active client application off (`suspended`): its codes stop.",
    { _tag: "Disable" },
  ),
  moveOperation(
    "partner.applications.resume",
    `${base}/{id}/resume`,
    "Switches a suspended client application back on (`active`).",
    { _tag: "Resume" },
  ),
  moveOperation(
    "partner.applications.archive",
    `${base}/{id}/archive`,
    "Archives a client application (from any state); it leaves the default list.",
    { _tag: "Archive" },
  ),
  moveOperation(
    "partner.applications.restore",
    `${base}/{id}/restore`,
    "Restores an archived client application to the state it had before.",
    { _tag: "Restore" },
  ),
  operation({
    name: "partner.applications.appeal",
    summary: "Appeals a rejection whose reason may be appealed: the application goes back to review.",
    method: "POST",
    path: `${base}/{id}/appeal`,
    caller: partner,
    answer: done,
    parameters: [idParameter],
    body: AppealBody,
    decode: (r: RawInput) => Either.map(decodeAppeal(r.body ?? {}), () => ({ id: r.params.id, baseUrl: r.baseUrl })),
    output: Record,
    errors: [InvalidRequest, ServiceNotFound, NotAppealable],
    idempotent: true,
    service: PartnerApplications,
    run: (s, p, input) => s.move(p, input.id, { _tag: "Appeal" }, input.baseUrl),
  }),
  operation({
    name: "partner.applications.logo.set",
    summary:
      "Sets the logo (a base64 data URL of PNG, JPEG or WebP, at most 512 KiB and 16,777,216 pixels); on a rejected application it asks for review again (409 not_appealable when the rejection may not be appealed).",
    method: "POST",
    path: `${base}/{id}/logo`,
    caller: partner,
    answer: done,
    parameters: [idParameter],
    body: LogoBody,
    decode: (r: RawInput) =>
      Either.map(decodeLogo(r.body ?? {}), (b) => ({ id: r.params.id, logo: logoOf(b.logo), baseUrl: r.baseUrl })),
    output: Record,
    errors: [InvalidRequest, ServiceNotFound, InvalidState, NotAppealable],
    idempotent: true,
    service: PartnerApplications,
    run: (s, p, input) => s.setLogo(p, input),
  }),
  operation({
    name: "partner.applications.logo.remove",
    summary:
      "Removes the logo (`logo_url` null); on a rejected application it asks for review again (409 not_appealable when the rejection may not be appealed).",
    method: "DELETE",
    path: `${base}/{id}/logo`,
    caller: partner,
    answer: done,
    parameters: [idParameter],
    body: undefined,
    decode: (r: RawInput) => Either.right({ id: r.params.id, baseUrl: r.baseUrl }),
    output: Record,
    errors: [ServiceNotFound, InvalidState, NotAppealable],
    idempotent: true,
    service: PartnerApplications,
    run: (s, p, input) => s.removeLogo(p, input),
  }),
  operation({
    name: "logos.show",
    summary: "A client application's logo, by content hash: no key needed, cached for a year (immutable).",
    method: "GET",
    path: "/v1/logos/{file}",
    caller: { _tag: "Public" },
    answer: done,
    parameters: [{
      name: "file",
      in: "path",
      description: "`{sha256}.{ext}`: the lower-case hex SHA-256 of the bytes and png, jpg or webp",
      schema: Schema.String,
      required: true,
    }],
    body: undefined,
    decode: (r: RawInput) => Either.right({ file: r.params.file, ifNoneMatch: r.header?.("if-none-match") }),
    output: Schema.Unknown,
    produces: Object.values(contentTypes),
    errors: [NotFound],
    idempotent: false,
    service: PartnerApplications,
    run: (s, _p, input: { file: string; ifNoneMatch: string | undefined }) =>
      Effect.flatMap(
        s.logo(input.file, input.ifNoneMatch),
        Option.match({ onNone: () => Effect.fail(notFound), onSome: (a) => Effect.succeed(a) }),
      ),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
