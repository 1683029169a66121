/**
 * A console page, as a product declares it (the product's `pages`, adapters/product.ts): a method and a path
 * under `/console/`, and a handler that reads the platform's services and answers HTML or a redirect. The frame
 * (adapters/console/serve.ts) does the rest for every page alike: the session, the CSRF token of a POST, the
 * language, the form's size, the security headers, and a page for every refusal.
 */
import { Effect } from "effect"
import { type NotFound, notFound } from "../../core/pipeline/errors.ts"
import { isUuid } from "../../core/shared/brands.ts"
import type { VNode } from "preact"
import type { Params } from "../../core/pipeline/handler.ts"
import type { ApiRequest } from "../../core/pipeline/request.ts"
import type { Lang, MessageKey, Translate } from "./i18n.ts"

export interface PageContext {
  readonly req: ApiRequest
  readonly params: Params
  readonly lang: Lang
  readonly t: Translate
  /** The relative way from this page to the console's root (`./`, `../`, ...): links work under any prefix. */
  readonly root: string
  /** The path of this page under the console's root (`approvals/…`), for the language switch's way back. */
  readonly here: string
  /** The session's CSRF token, for every form the page shows. */
  readonly csrf: string
  /** A POST's form fields (`application/x-www-form-urlencoded`); empty for a GET. */
  readonly form: URLSearchParams
  readonly now: number
}

export type PageAnswer =
  | {
    readonly _tag: "Html"
    readonly status?: number
    readonly title: string
    readonly body: VNode
  }
  /** 303 to a page, named by its path under the console's root (`approvals/…`). */
  | { readonly _tag: "Redirect"; readonly to: string }
  /** A document to open or save (a proforma's PDF), answered as it is with its type and its file name. */
  | { readonly _tag: "File"; readonly contentType: string; readonly fileName: string; readonly body: Uint8Array }

export const html = (title: string, body: VNode, status?: number): PageAnswer => ({
  _tag: "Html",
  title,
  body,
  ...(status === undefined ? {} : { status }),
})
export const redirect = (to: string): PageAnswer => ({ _tag: "Redirect", to })
export const file = (contentType: string, fileName: string, body: Uint8Array): PageAnswer => ({
  _tag: "File",
  contentType,
  fileName,
  body,
})

export interface ConsolePage {
  readonly method: "GET" | "POST"
  /** Under `/console`, in the router's form: `/approvals/:id`. Never under `/v1` (the console's JSON API). */
  readonly path: string
  /** A GET page listed in the console's navigation, by its label and its place. */
  readonly nav?: { readonly label: MessageKey; readonly order: number }
  /**
   * Each failure of the catalogue (`not_found`, `invalid_state`, `invalid_request` with its fields) becomes a page
   * saying so; anything else is the 500 page, logged with its request id.
   */
  readonly handler: (ctx: PageContext) => Effect.Effect<PageAnswer, unknown, any>
}

/** A path parameter that must be a UUID: any other value names nothing (404, as the API answers). */
export const uuidParam = (ctx: PageContext, name: string): Effect.Effect<string, NotFound> => {
  const id = ctx.params[name] ?? ""
  return isUuid(id) ? Effect.succeed(id) : Effect.fail(notFound)
}
