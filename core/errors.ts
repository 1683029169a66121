/**
 * Catalogue errors as the edge renders them: status, headers and wire body, each read from the error's own
 * class (core/shared/api-error.ts), so a product's codes need no central index. The catalogue itself (every
 * code of the selected products, for the document and the checks at build) is the fold of the products list:
 * adapters/products.ts `errorsOf`. The re-exports below are an import convenience for the shipped products'
 * code; a new product imports its codes from its own folder.
 */
import { type AnyApiError, entryOfError, isCatalogueError } from "./shared/api-error.ts"

export * from "./accounts/errors.ts"
export * from "./chat/errors.ts"
export * from "./email/errors.ts"
export * from "./notifications/errors.ts"
export * from "./partner/application-errors.ts"
export * from "./pipeline/errors.ts"
export * from "./verify/errors.ts"
export * from "./wallet/errors.ts"

/** Any catalogue error, of any product (the fold of the products list: adapters/products.ts `errorsOf`). */
export type ApiError = AnyApiError

/** A wire `error` code. */
export type ErrorCode = string

/** The HTTP status of an error, from its class. */
export const statusOf = (e: ApiError): number => entryOfError(e).status

/** Headers an error adds; the fields they come from never appear in the body. */
export const errorHeaders = (e: ApiError): Record<string, string> | undefined => {
  const headerFields = entryOfError(e).headerFields
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
  for (const k of entryOfError(e).bodyFields) {
    // Own properties only: an unset optional `message` must not read Error.prototype.message.
    if (!Object.prototype.hasOwnProperty.call(e, k)) continue
    const v = (e as unknown as Record<string, unknown>)[k]
    if (v !== undefined) body[k] = v
  }
  return body
}

/** Whether `u` is a catalogue error of any product (a class made by `ApiErrorClass`). */
export const isApiError: (u: unknown) => u is ApiError = isCatalogueError
