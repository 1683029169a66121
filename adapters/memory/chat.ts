/** Chat's tables in memory: conversation menus, auto-attendants, their published versions and conversations. */
import { Effect, Layer, Option } from "effect"
import type { LiveMenu } from "../../core/chat/attendant.ts"
import type { ChatMenu } from "../../core/chat/menus.ts"
import type { Attendant } from "../../core/chat/model.ts"
import type { Millis } from "../../core/shared/brands.ts"
import {
  ChatAttendantsRepo,
  type ChatConversation,
  ChatConversationsRepo,
  ChatMenusRepo,
} from "../../ports/store/chat.ts"
import { deleteIn, memoryTables, setIn, violation } from "./db.ts"

export const chatTables = () => ({
  chatMenus: new Map<string, ChatMenu>(),
  chatAttendants: new Map<string, Attendant>(),
  /** By application, then version. */
  chatAttendantVersions: new Map<string, LiveMenu>(),
  chatConversations: new Map<string, ChatConversation>(),
})

const versionKey = (applicationId: string, version: number) => `${applicationId}\u0000${version}`

/** Oldest first, then by id (as the SQL order by `created_at, id`). */
const oldestFirst = (x: ChatMenu, y: ChatMenu) => x.createdAt - y.createdAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)

export const ChatMenusRepoMemory = Layer.effect(
  ChatMenusRepo,
  Effect.map(memoryTables(chatTables), (db) => {
    const mine = (menus: Map<string, ChatMenu>, applicationId: string, appName: string) =>
      [...menus.values()].filter((m) => m.applicationId === applicationId && m.appName === appName)
    return {
      list: (applicationId, appName) => db.read((t) => mine(t.chatMenus, applicationId, appName).sort(oldestFirst)),
      get: (applicationId, appName, id) =>
        db.read((t) =>
          Option.filter(
            Option.fromNullable(t.chatMenus.get(id)),
            (m) => m.applicationId === applicationId && m.appName === appName,
          )
        ),
      insert: (menu, max) =>
        db.write((t, record) => {
          if (t.chatMenus.has(menu.id)) violation(`duplicate chat menu ${menu.id}`)
          if (mine(t.chatMenus, menu.applicationId, menu.appName).length >= max) return false
          setIn(t.chatMenus, menu.id, menu, record)
          return true
        }),
      update: (menu) =>
        db.write((t, record) => {
          const held = t.chatMenus.get(menu.id)
          if (held === undefined || held.applicationId !== menu.applicationId || held.appName !== menu.appName) return
          setIn(t.chatMenus, menu.id, { ...held, title: menu.title, url: menu.url, updatedAt: menu.updatedAt }, record)
        }),
      remove: (applicationId, appName, id) =>
        db.write((t, record) => {
          const held = t.chatMenus.get(id)
          if (held === undefined || held.applicationId !== applicationId || held.appName !== appName) return false
          deleteIn(t.chatMenus, id, record)
          return true
        }),
    }
  }),
)

export const ChatAttendantsRepoMemory = Layer.effect(
  ChatAttendantsRepo,
  Effect.map(memoryTables(chatTables), (db) => ({
    get: (applicationId) => db.read((t) => Option.fromNullable(t.chatAttendants.get(applicationId))),
    // The memory store runs one transaction at a time: the customer's lock is the store's own.
    forCustomer: (applicationId) =>
      db.read((t) =>
        Option.map(Option.fromNullable(t.chatAttendants.get(applicationId)), (a) => ({ ...a, draft: null }))
      ),
    save: (a) =>
      db.write((t, record) => {
        const held = t.chatAttendants.get(a.applicationId)
        setIn(t.chatAttendants, a.applicationId, { ...a, live: held?.live ?? null }, record)
      }),
    publish: (applicationId, live) =>
      db.write((t, record) => {
        const key = versionKey(applicationId, live.version)
        if (t.chatAttendantVersions.has(key)) violation(`duplicate attendant version ${key}`)
        setIn(t.chatAttendantVersions, key, live, record)
        const held = t.chatAttendants.get(applicationId)
        if (held !== undefined) setIn(t.chatAttendants, applicationId, { ...held, live }, record)
      }),
    version: (applicationId, version) =>
      db.read((t) => Option.fromNullable(t.chatAttendantVersions.get(versionKey(applicationId, version)))),
  })),
)

/** Newest first by `started_at`, then id (as the SQL order by `started_at DESC, id DESC`). */
const newestFirst = (x: ChatConversation, y: ChatConversation) =>
  y.startedAt - x.startedAt || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0)

const earliest = (times: ReadonlyArray<number>): Option.Option<Millis> =>
  times.length === 0 ? Option.none() : Option.some(Math.min(...times) as Millis)

export const ChatConversationsRepoMemory = Layer.effect(
  ChatConversationsRepo,
  Effect.map(memoryTables(chatTables), (db) => {
    const ongoing = (t: ReturnType<typeof chatTables>) =>
      [...t.chatConversations.values()].filter((c) => c.outcome === "ongoing")
    return {
      ongoing: (applicationId, phone) =>
        db.read((t) =>
          Option.fromNullable(ongoing(t).find((c) => c.applicationId === applicationId && c.phone === phone))
        ),
      save: (c) => db.write((t, record) => setIn(t.chatConversations, c.id, c, record)),
      silentSince: (before, limit) =>
        db.read((t) =>
          ongoing(t).filter((c) => c.lastCustomerAt <= before).sort((x, y) => x.lastCustomerAt - y.lastCustomerAt)
            .slice(0, limit)
        ),
      handedOverSince: (applicationId, since) =>
        db.read((t) =>
          [...t.chatConversations.values()].filter((c) =>
            c.applicationId === applicationId && c.outcome === "team" && (c.endedAt ?? 0) >= since
          ).length
        ),
      ongoingOf: (applicationId, limit) =>
        db.read((t) => ongoing(t).filter((c) => c.applicationId === applicationId).slice(0, limit)),
      page: (q) =>
        db.read((t) => {
          const needle = q.q?.toLowerCase() ?? null
          return [...t.chatConversations.values()]
            .filter((c) =>
              c.applicationId === q.applicationId &&
              (q.outcomes === null || q.outcomes.includes(c.outcome)) &&
              ((needle === null && q.qPhone === null) ||
                (needle !== null && (c.customerName ?? "").toLowerCase().includes(needle)) ||
                (q.qPhone !== null && c.phone.includes(q.qPhone))) &&
              (q.after === null || newestFirst(c, { startedAt: q.after.startedAt, id: q.after.id } as any) > 0)
            )
            .sort(newestFirst)
            .slice(0, q.limit)
        }),
      earliestSilent: db.read((t) => earliest(ongoing(t).map((c) => c.lastCustomerAt))),
      earliestStarted: db.read((t) => earliest([...t.chatConversations.values()].map((c) => c.startedAt))),
      prune: (before, limit) =>
        db.write((t, record) => {
          const old = [...t.chatConversations.values()].filter((c) => c.startedAt < before).slice(0, limit)
          old.forEach((c) => deleteIn(t.chatConversations, c.id, record))
          return old.length
        }),
    }
  }),
)
