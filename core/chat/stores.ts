/**
 * The store assistant (DECISIONS 9.5, 10): an application's online store, connected in the console and read
 * from its platform at connection and every 6 hours of platform time (a failed read keeps the last products);
 * the assistant's tools; and the account API's store list, template refresh and assistant store read.
 */
import { Clock, Effect, Either, Layer, Option, Redacted } from "effect"
import { AssistantStores } from "../../ports/assistant-stores.ts"
import { ChatNetwork } from "../../ports/chat-network.ts"
import { Secrets } from "../../ports/secrets.ts"
import { ChatStoresRepo } from "../../ports/store/chat-stores.ts"
import { type StoreAddress, type StorePlatformCode, StorePlatforms } from "../../ports/store-platforms.ts"
import { roleLimited } from "../accounts/callers.ts"
import type { Next } from "../accounts/errors.ts"
import { keysetPage, type ListQuery } from "../accounts/lists.ts"
import { Console } from "../console/service.ts"
import { notFound } from "../errors.ts"
import { Stores as Limits } from "../limits.ts"
import { NoWhatsappNumber, TemplatesUnavailable } from "../notifications/errors.ts"
import { describeTemplates } from "../notifications/template.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { isUuid, type Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { StorePlatformUnreachable } from "./errors.ts"
import { type AssistantTools, type ChatStore, defaultTools } from "./store-model.ts"

/** The application has a connected store: an `assistant` choice is not `no_assistant` (ports/assistant-stores.ts). */
export const AssistantStoresLive = Layer.effect(
  AssistantStores,
  Effect.map(ChatStoresRepo, (repo) => ({
    connected: (applicationId) => Effect.map(repo.ofApplication(applicationId), Option.isSome),
  })),
)

export const storeJson = (s: ChatStore) => ({
  id: s.id,
  platform: s.platform,
  ref: s.ref,
  name: s.name,
  application_id: s.applicationId,
})

/** The last due time at or before `now` of a read first due at `due` and every period after it. */
export const lastDueTime = (due: Millis, now: Millis): Millis =>
  now <= due ? due : due + Math.floor((now - due) / Limits.readEveryMs) * Limits.readEveryMs

/** How a refresh call is made again, and where the console is, for `next` and `human_action`. */
export interface RefreshCall {
  readonly baseUrl: string
  readonly again: Next
}

export class ChatStores extends Effect.Service<ChatStores>()("core/ChatStores", {
  effect: Effect.gen(function* () {
    const repo = yield* ChatStoresRepo
    const platforms = yield* StorePlatforms
    const secrets = yield* Secrets
    const operator = yield* Console
    const network = yield* ChatNetwork
    const cursors = yield* makeCursors

    const addressOf = (s: Pick<ChatStore, "platform" | "ref" | "tokenSealed">): StoreAddress => ({
      platform: s.platform,
      ref: s.ref,
      token: s.tokenSealed === null ? null : Redacted.make(secrets.unseal(s.tokenSealed)),
    })

    /** Console: connects the platform's store to the application, read at once; it replaces the one held before. */
    const connect = Effect.fn("ChatStores.connect", untracedStacks)(
      function* (applicationId: string, input: { platform: StorePlatformCode; ref: string; token?: string }) {
        const app = yield* operator.application(applicationId)
        const held = yield* repo.ofApplication(app.id)
        const same = Option.filter(held, (s) => s.platform === input.platform && s.ref === input.ref)
        const tokenSealed = input.token !== undefined
          ? secrets.seal(input.token)
          : Option.match(same, { onNone: () => null, onSome: (s) => s.tokenSealed })
        const read = yield* platforms.read(addressOf({ ...input, tokenSealed })).pipe(
          Effect.mapError((e) =>
            new StorePlatformUnreachable({
              message:
                `The ${input.platform} store ${input.ref} could not be read: ${e.message}. Nothing was connected.`,
            })
          ),
        )
        const now = yield* Clock.currentTimeMillis
        const store: ChatStore = {
          id: Option.isSome(same) ? same.value.id : yield* secrets.uuid,
          accountId: app.accountId,
          applicationId: app.id,
          platform: input.platform,
          ref: input.ref,
          name: read.name,
          url: read.url,
          tokenSealed,
          products: read.products,
          productsReadAt: now,
          nextReadAt: now + Limits.readEveryMs,
          connectedAt: Option.isSome(same) ? same.value.connectedAt : now,
        }
        yield* repo.connect(store)
        return { id: store.id, platform: store.platform, ref: store.ref, name: store.name }
      },
    )

    /** The assistant store read of an application (the account API checked it is the caller's). */
    const readOf = (applicationId: ChatStore["applicationId"]) =>
      Effect.gen(function* () {
        const store = yield* repo.ofApplication(applicationId)
        const tools = Option.getOrElse(yield* repo.tools(applicationId), () => defaultTools)
        return Option.match(store, {
          onNone: () => ({
            connected: false,
            store: null,
            products: [],
            products_total: 0,
            products_read_at: null,
            tools,
          }),
          onSome: (s) => ({
            connected: true,
            store: { id: s.id, platform: s.platform, name: s.name, url: s.url },
            products: s.products.slice(0, Limits.productsShown).map((p) => ({
              id: p.id,
              name: p.name,
              price_halalas: p.priceHalalas,
              available: p.available,
            })),
            products_total: s.products.length,
            products_read_at: isoMillis(s.productsReadAt),
            tools,
          }),
        })
      })

    /** An agent reads it without the prices (`*_halalas`: DECISIONS 18, core/accounts/callers.ts `roleLimited`). */
    const show = Effect.fn("ChatStores.show", untracedStacks)(function* (p: AccountPrincipal, applicationId: string) {
      if (!isUuid(applicationId)) return yield* notFound
      return roleLimited(p, yield* readOf(applicationId as ChatStore["applicationId"]))
    })

    /** Console: switches the assistant's store tools (those not given keep their state); answers the store read. */
    const setTools = Effect.fn("ChatStores.setTools", untracedStacks)(
      function* (applicationId: string, tools: Partial<AssistantTools>) {
        const app = yield* operator.application(applicationId)
        const held = Option.getOrElse(yield* repo.tools(app.id), () => defaultTools)
        yield* repo.setTools(app.id, { ...held, ...tools })
        return yield* readOf(app.id)
      },
    )

    const list = (p: AccountPrincipal, q: typeof ListQuery.Type) =>
      keysetPage(
        cursors,
        "stores",
        p.account.id,
        q,
        (after, limit) =>
          repo.page(p.account.id, after && { connectedAt: Number(after[0]), id: String(after[1]) }, limit),
        (s) => [s.connectedAt, s.id],
        storeJson,
      )

    /** The store a path names: one of the caller's account, on that platform; else `404 not_found`. */
    const located = (p: AccountPrincipal, platform: string, storeId: string) =>
      Effect.flatMap(
        isUuid(storeId) ? repo.get(storeId) : Effect.succeedNone,
        (found) =>
          Option.isSome(found) && found.value.accountId === p.account.id && found.value.platform === platform
            ? Effect.succeed(found.value)
            : Effect.fail(notFound),
      )

    /** Re-reads the templates of the number of the store's application (DECISIONS 10 "Operations"). */
    const refresh = Effect.fn("ChatStores.refresh", untracedStacks)(
      function* (p: AccountPrincipal, platform: string, storeId: string, call: RefreshCall) {
        const store = yield* located(p, platform, storeId)
        const unavailable = () =>
          new TemplatesUnavailable({
            message: "The chat network did not answer with the template list. Make the same call again later.",
            next: call.again,
          })
        const number = yield* Effect.mapError(network.number(store.applicationId), unavailable)
        if (Option.isNone(number)) {
          return yield* new NoWhatsappNumber({
            message: "The store's application has no WhatsApp number: its templates are the number's.",
            needs: ["whatsapp_number"],
            human_action: {
              reason: "connect_whatsapp",
              url: `${call.baseUrl}/console/applications/${store.applicationId}/whatsapp`,
              say: `Connect a WhatsApp number to the application of the store ${store.name} in the console.`,
              then: call.again,
            },
          })
        }
        const templates = yield* Effect.mapError(network.templates(store.applicationId, { fresh: true }), unavailable)
        return {
          data: {
            store_id: store.id,
            templates: describeTemplates(templates),
            refreshed_at: isoMillis(yield* Clock.currentTimeMillis),
          },
          next: { operation: "stores.list", method: "GET", path: "/v1/stores" },
        }
      },
    )

    /**
     * The read job: every store due is read again, as at its last due time crossed; a failed read keeps the
     * products (and when they were read) and waits for the next due time.
     */
    const readDue = () =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        for (;;) {
          const due = yield* repo.due(now, Limits.readBatch)
          for (const s of due) {
            const at = lastDueTime(s.nextReadAt, now)
            const read = yield* Effect.either(platforms.read(addressOf(s)))
            if (Either.isRight(read)) {
              const { name, url, products } = read.right
              yield* repo.saveRead(s.id, {
                name,
                url,
                products,
                productsReadAt: at,
                nextReadAt: at + Limits.readEveryMs,
              })
            } else {
              yield* Effect.logWarning(`store ${s.id} not read: ${read.left.message}`)
              yield* repo.postpone(s.id, at + Limits.readEveryMs)
            }
          }
          if (due.length < Limits.readBatch) return
        }
      }).pipe(Effect.withSpan("ChatStores.readDue"))

    return { connect, show, setTools, list, located, refresh, readDue } as const
  }),
}) {}
