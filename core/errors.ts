/**
 * The error catalogue, read in one place: every product's codes (`core/<product>/errors.ts`, each class with
 * its HTTP status and headers beside it) merged here. The union, the status map and the wire body are
 * derived from the classes, never written again.
 */
import type { CatalogueEntry } from "./shared/api-error.ts"
import { accountsErrors } from "./accounts/errors.ts"
import { chatErrors } from "./chat/errors.ts"
import { emailErrors } from "./email/errors.ts"
import { notificationsErrors } from "./notifications/errors.ts"
import { partnerApplicationErrors } from "./partner/application-errors.ts"
import { pipelineErrors } from "./pipeline/errors.ts"
import { verifyErrors } from "./verify/errors.ts"
import { walletErrors } from "./wallet/errors.ts"

export * from "./accounts/errors.ts"
export * from "./chat/errors.ts"
export * from "./email/errors.ts"
export * from "./notifications/errors.ts"
export * from "./partner/application-errors.ts"
export * from "./pipeline/errors.ts"
export * from "./verify/errors.ts"
export * from "./wallet/errors.ts"

/** Every error class of every product. */
export const catalogue = [
  ...pipelineErrors,
  ...verifyErrors,
  ...walletErrors,
  ...notificationsErrors,
  ...chatErrors,
  ...accountsErrors,
  ...emailErrors,
  ...partnerApplicationErrors,
] as const

export type ApiError = InstanceType<(typeof catalogue)[number]>

export type ErrorCode = ApiError["_tag"]

const entries = catalogue as ReadonlyArray<unknown> as ReadonlyArray<CatalogueEntry>
const entryOf = new Map<string, CatalogueEntry>(entries.map((c) => [c._tag, c]))

/** HTTP status of every code, from the classes. */
export const HttpStatus: { readonly [C in ErrorCode]: number } = Object.fromEntries(
  entries.map((c) => [c._tag, c.status]),
) as { readonly [C in ErrorCode]: number }

/** The body fields of each code: its schema's fields less `_tag` and those sent as headers. */
const bodyFieldsOf = new Map<string, ReadonlyArray<string>>(
  entries.map((c) => [c._tag, Object.keys(c.fields).filter((k) => k !== "_tag" && !(k in c.headerFields))]),
)

/** Headers an error adds; the fields they come from never appear in the body. */
export const errorHeaders = (e: ApiError): Record<string, string> | undefined => {
  const headerFields = entryOf.get(e._tag)!.headerFields
  let headers: Record<string, string> | undefined
  for (const field in headerFields) {
    const [name, value] = headerFields[field]((e as unknown as Record<string, unknown>)[field])
    ;(headers ??= {})[name] = value
  }
  return headers
}

/** The wire body of an error: `{ error: code, ...extras }`, from the fields its schema declares. */
export const errorBody = (e: ApiError): Record<string, unknown> => {
  const body: Record<string, unknown> = { error: e._tag }
  for (const k of bodyFieldsOf.get(e._tag)!) {
    // Own properties only: an unset optional `message` must not read Error.prototype.message.
    if (!Object.prototype.hasOwnProperty.call(e, k)) continue
    const v = (e as unknown as Record<string, unknown>)[k]
    if (v !== undefined) body[k] = v
  }
  return body
}

export const isApiError = (u: unknown): u is ApiError =>
  typeof u === "object" && u !== null && "_tag" in u && typeof (u as { _tag: unknown })._tag === "string" &&
  entryOf.has((u as { _tag: string })._tag)
