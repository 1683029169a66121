/**
 * Chat's connected-app operations (DECISIONS 9.1, 9.2): conversation menus and the auto-attendant. Every write
 * commits with its entry in the account's audit record (DECISIONS 9.3: actor `{ type: "app", name }`, the key's
 * `app_name`); a replay under `Idempotency-Key` runs nothing, so it records nothing.
 */
import { Clock, Effect, Option } from "effect"
import { AssistantStores } from "../../ports/assistant-stores.ts"
import { AuditRepo } from "../../ports/store/audit.ts"
import { ChatAttendantsRepo, ChatConversationsRepo, ChatMenusRepo } from "../../ports/store/chat.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { Secrets } from "../../ports/secrets.ts"
import { notFound } from "../pipeline/errors.ts"
import type { KeyPrincipal } from "../pipeline/authenticate.ts"
import type { Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { Chat as ChatLimits } from "../limits.ts"
import { type MenuContext, menuProblems, publishDecision } from "./attendant.ts"
import type { DraftInput, SettingsChange } from "./attendant-input.ts"
import { AttendantNoDraft, AttendantNotReady, MenuLimit } from "./errors.ts"
import { type Situation, step } from "./conversation.ts"
import { type ChatMenu, menuJson } from "./menus.ts"
import { type Attendant, attendantJson, draftJson, newAttendant } from "./model.ts"

type Obj = Readonly<Record<string, unknown>>

/** The attendant as a conversation being switched off sees it (only `now` matters to that event). */
const stopping: Situation = { now: 0, enabled: false, mode: "always", teamFree: false, live: null, menu: null }

/** The connected app calling: its key's `app_name` (only a connected app's key holds the chat scopes). */
const appOf = (p: KeyPrincipal): string => p.credential.appName ?? ""

export class Chat extends Effect.Service<Chat>()("core/Chat", {
  effect: Effect.gen(function* () {
    const tx = yield* Transactor
    const menus = yield* ChatMenusRepo
    const attendants = yield* ChatAttendantsRepo
    const conversations = yield* ChatConversationsRepo
    const audit = yield* AuditRepo
    const stores = yield* AssistantStores
    const secrets = yield* Secrets

    const record = (p: KeyPrincipal, action: string, details: unknown, at: Millis) =>
      Effect.flatMap(secrets.uuid, (id) =>
        audit.append({
          id,
          accountId: p.account.id,
          at,
          actor: { type: "app", id: null, name: p.credential.appName },
          applicationId: p.application.id,
          action,
          details,
        }))

    const now = Effect.map(Clock.currentTimeMillis, (ms) => ms as Millis)

    const menuOf = (p: KeyPrincipal, id: string) =>
      Effect.flatMap(
        menus.get(p.application.id, appOf(p), id),
        Option.match({ onNone: () => Effect.fail(notFound), onSome: Effect.succeed }),
      )

    const listMenus = Effect.fn("Chat.menus.list")(function* (p: KeyPrincipal) {
      const found = yield* menus.list(p.application.id, appOf(p))
      return { data: found.map(menuJson), next_cursor: null }
    })

    const showMenu = Effect.fn("Chat.menus.show")(function* (p: KeyPrincipal, id: string) {
      return menuJson(yield* menuOf(p, id))
    })

    const createMenu = Effect.fn("Chat.menus.create")(
      function* (p: KeyPrincipal, body: { title: string; url: string }) {
        const at = yield* now
        const menu: ChatMenu = {
          id: yield* secrets.uuid,
          applicationId: p.application.id,
          appName: appOf(p),
          title: body.title,
          url: body.url,
          createdAt: at,
          updatedAt: at,
        }
        return yield* tx.withTransaction(Effect.gen(function* () {
          if (!(yield* menus.insert(menu, ChatLimits.maxMenus))) {
            return yield* new MenuLimit({
              message: `A connected app holds at most ${ChatLimits.maxMenus} menus per application.`,
              max: ChatLimits.maxMenus,
            })
          }
          yield* record(p, "chat.menus.create", { id: menu.id, title: menu.title, url: menu.url }, at)
          return menuJson(menu)
        }))
      },
    )

    const updateMenu = Effect.fn("Chat.menus.update")(
      function* (p: KeyPrincipal, id: string, body: { title?: string | undefined; url?: string | undefined }) {
        const at = yield* now
        return yield* tx.withTransaction(Effect.gen(function* () {
          const menu = yield* menuOf(p, id)
          const changed: ChatMenu = { ...menu, title: body.title ?? menu.title, url: body.url ?? menu.url }
          if (changed.title === menu.title && changed.url === menu.url) return menuJson(menu)
          const updated = { ...changed, updatedAt: at }
          yield* menus.update(updated)
          yield* record(p, "chat.menus.update", { id, ...body }, at)
          return menuJson(updated)
        }))
      },
    )

    const deleteMenu = Effect.fn("Chat.menus.delete")(function* (p: KeyPrincipal, id: string) {
      const at = yield* now
      return yield* tx.withTransaction(Effect.gen(function* () {
        if (!(yield* menus.remove(p.application.id, appOf(p), id))) return yield* notFound
        yield* record(p, "chat.menus.delete", { id }, at)
        return { id, deleted: true as const }
      }))
    })

    const contextOf = (p: KeyPrincipal): Effect.Effect<MenuContext> =>
      Effect.map(stores.connected(p.application.id), (hasStore) => ({ hasStore }))

    const problemsOf = (a: Attendant, context: MenuContext) =>
      a.draft === null ? [] : menuProblems(a.draft.menu as Obj, context)

    const current = (p: KeyPrincipal, forUpdate = false) =>
      Effect.map(attendants.get(p.application.id, forUpdate), Option.getOrElse(() => newAttendant(p.application.id)))

    const showAttendant = Effect.fn("Chat.attendant.show")(function* (p: KeyPrincipal) {
      const a = yield* current(p)
      return attendantJson(a, problemsOf(a, yield* contextOf(p)))
    })

    /** Settings given apply at once (they are not versioned). */
    const withSettings = (a: Attendant, change: SettingsChange): Attendant => ({
      ...a,
      enabled: change.enabled ?? a.enabled,
      mode: change.mode ?? a.mode,
      language: change.language ?? a.language,
    })

    const saveDraft = Effect.fn("Chat.attendant.draft")(function* (p: KeyPrincipal, input: DraftInput) {
      const at = yield* now
      const context = yield* contextOf(p)
      const { menu, ...change } = input
      return yield* tx.withTransaction(Effect.gen(function* () {
        const saved: Attendant = { ...withSettings(yield* current(p, true), change), draft: { menu, savedAt: at } }
        yield* attendants.save(saved)
        const problems = menuProblems(menu, context)
        yield* record(p, "chat.attendant.draft", { ...change, problems: problems.length }, at)
        return draftJson(saved.draft!, problems)
      }))
    })

    const publish = Effect.fn("Chat.attendant.publish")(function* (p: KeyPrincipal) {
      const at = yield* now
      const context = yield* contextOf(p)
      return yield* tx.withTransaction(Effect.gen(function* () {
        const a = yield* current(p, true)
        const decided = publishDecision(a.draft?.menu, a.live, context, at)
        switch (decided._tag) {
          case "NoDraft":
            return yield* new AttendantNoDraft({
              message: "Nothing saved yet: save a draft with PUT /v1/chat/attendant/draft.",
            })
          case "NotReady":
            return yield* new AttendantNotReady({ problems: decided.problems })
          case "Publish":
            yield* attendants.publish(p.application.id, decided.live)
        }
        const live = decided.live
        yield* record(p, "chat.attendant.publish", { version: live.version }, at)
        return { version: live.version, published_at: isoMillis(live.publishedAt) }
      }))
    })

    /** Switching the attendant off ends its ongoing conversations `stopped` (DECISIONS 9.3). */
    const stopConversations = (p: KeyPrincipal, at: Millis) =>
      Effect.gen(function* () {
        const ongoing = yield* conversations.ongoingOf(p.application.id, Number.MAX_SAFE_INTEGER)
        yield* Effect.forEach(ongoing, (c) => {
          const s = step(c, { _tag: "SwitchedOff" }, { ...stopping, now: at }, c.phone, c.id)
          return s.ended === null ? Effect.void : conversations.save({ ...s.ended, applicationId: c.applicationId })
        }, { discard: true })
      })

    const changeSettings = (action: string) =>
      Effect.fn(action)(function* (p: KeyPrincipal, change: SettingsChange) {
        const at = yield* now
        const context = yield* contextOf(p)
        return yield* tx.withTransaction(Effect.gen(function* () {
          const before = yield* current(p, true)
          const changed = withSettings(before, change)
          yield* attendants.save(changed)
          if (before.enabled && !changed.enabled) yield* stopConversations(p, at)
          yield* record(p, action, change, at)
          return attendantJson(changed, problemsOf(changed, context))
        }))
      })

    return {
      listMenus,
      showMenu,
      createMenu,
      updateMenu,
      deleteMenu,
      showAttendant,
      saveDraft,
      publish,
      setEnabled: changeSettings("chat.attendant.enabled"),
      changeSettings: changeSettings("chat.attendant.settings"),
    } as const
  }),
}) {}
