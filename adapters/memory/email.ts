/** Email's tables in memory: account access, each application's switch, sender domains, messages. */
import { searchMatches } from "../../core/email/search.ts"
import type { Millis } from "../../core/shared/brands.ts"
import { Effect, Layer, Option } from "effect"
import type { EmailAccess, EmailMessage, ListStatus, SenderDomain } from "../../core/email/model.ts"
import {
  EmailAccessRepo,
  type EmailListQuery,
  EmailMessagesRepo,
  EmailSwitchRepo,
  SenderDomainsRepo,
} from "../../ports/store/email.ts"
import { deleteIn, memoryTables, setIn, violation } from "./db.ts"

export const emailTables = () => ({
  emailAccess: new Map<string, EmailAccess>(),
  emailSwitch: new Map<string, boolean>(),
  senderDomains: new Map<string, SenderDomain>(),
  emailMessages: new Map<string, EmailMessage>(),
})

export const EmailAccessRepoMemory = Layer.effect(
  EmailAccessRepo,
  Effect.map(memoryTables(emailTables), (db) => ({
    get: (accountId) =>
      db.read((t) =>
        t.emailAccess.get(accountId) ?? { accountId, status: "none" as const, requestedAt: null, decidedAt: null }
      ),
    put: (access) => db.write((t, record) => setIn(t.emailAccess, access.accountId, access, record)),
  })),
)

export const EmailSwitchRepoMemory = Layer.effect(
  EmailSwitchRepo,
  Effect.map(memoryTables(emailTables), (db) => ({
    enabled: (applicationId) => db.read((t) => t.emailSwitch.get(applicationId) ?? true),
    setEnabled: (applicationId, enabled) =>
      db.write((t, record) => setIn(t.emailSwitch, applicationId, enabled, record)),
  })),
)

/** Oldest first, then by id (the SQL store's order). */
const byCreated = (a: SenderDomain, b: SenderDomain) =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
/** The longest waiting first, then by id. */
const byChecked = (a: SenderDomain, b: SenderDomain) =>
  a.checkedAt - b.checkedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

export const SenderDomainsRepoMemory = Layer.effect(
  SenderDomainsRepo,
  Effect.map(memoryTables(emailTables), (db) => ({
    list: (applicationId) =>
      db.read((t) => [...t.senderDomains.values()].filter((d) => d.applicationId === applicationId).sort(byCreated)),
    get: (id) => db.read((t) => Option.fromNullable(t.senderDomains.get(id))),
    verifiedElsewhere: (domain, applicationId) =>
      db.read((t) =>
        [...t.senderDomains.values()].some((d) =>
          d.domain === domain && d.status === "verified" && d.applicationId !== applicationId
        )
      ),
    insert: (domain) =>
      db.write((t, record) => {
        if (t.senderDomains.has(domain.id)) violation(`duplicate sender domain ${domain.id}`)
        for (const d of t.senderDomains.values()) {
          if (d.applicationId === domain.applicationId && d.domain === domain.domain) {
            violation(`sender domain ${domain.domain} already held by ${domain.applicationId}`)
          }
        }
        setIn(t.senderDomains, domain.id, domain, record)
      }),
    restart: (id, pendingUntil, at) =>
      db.write((t, record) => {
        const d = t.senderDomains.get(id)
        if (d === undefined || d.status !== "failed") return
        setIn(t.senderDomains, id, { ...d, status: "pending", pendingUntil, verifiedAt: null, checkedAt: at }, record)
      }),
    recordCheck: (check) =>
      db.write((t, record) => {
        const d = t.senderDomains.get(check.id)
        if (d === undefined || d.status !== "pending") return false
        const { records, status, verifiedAt, checkedAt } = check
        setIn(t.senderDomains, check.id, { ...d, records, status, verifiedAt, checkedAt }, record)
        return true
      }),
    due: (before, limit) =>
      db.read((t) =>
        [...t.senderDomains.values()].filter((d) => d.status === "pending" && d.checkedAt <= before).sort(byChecked)
          .slice(0, limit)
      ),
    earliestSettled: (since, until, every) =>
      db.read((t) => {
        let earliest: number | undefined
        for (const d of t.senderDomains.values()) {
          if (d.status !== "pending") continue
          const c = d.checkedAt
          const k = Math.min(Math.ceil((d.pendingUntil - c) / every), Math.floor((until - c) / every))
          const next = c <= since ? c + every : c + Math.max(k, 1) * every
          if (earliest === undefined || next < earliest) earliest = next
        }
        return Option.fromNullable(earliest as Millis | undefined)
      }),
    earliestPending: db.read((t) => {
      let earliest: number | undefined
      for (const d of t.senderDomains.values()) {
        if (d.status === "pending" && (earliest === undefined || d.checkedAt < earliest)) earliest = d.checkedAt
      }
      return Option.fromNullable(earliest)
    }),
  })),
)

const statusMatches = (m: EmailMessage, status: ListStatus | undefined): boolean =>
  status === undefined
    ? true
    : status === "undelivered"
    ? m.status === "bounced" || m.status === "failed"
    : status === "complained"
    ? m.complained
    : m.status === status

/** `q` arrives lower-cased; what it matches depends on its shape (core/email/search.ts). */
const queryMatches = (m: EmailMessage, q: string | undefined): boolean =>
  q === undefined || q === "" || searchMatches(m, q)

/** Newest first: `createdAt` then `id` descending. */
const newestFirst = (a: EmailMessage, b: EmailMessage) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

const before = (m: EmailMessage, after: EmailListQuery["after"]) =>
  after === undefined || m.createdAt < after.createdAt || (m.createdAt === after.createdAt && m.id < after.id)

export const EmailMessagesRepoMemory = Layer.effect(
  EmailMessagesRepo,
  Effect.map(memoryTables(emailTables), (db) => ({
    insert: (message) =>
      db.write((t, record) => {
        if (t.emailMessages.has(message.id)) violation(`duplicate email message ${message.id}`)
        setIn(t.emailMessages, message.id, message, record)
      }),
    setProviderId: (id, providerMessageId) =>
      db.write((t, record) => {
        const m = t.emailMessages.get(id)
        if (m !== undefined) setIn(t.emailMessages, id, { ...m, providerMessageId }, record)
      }),
    remove: (id) => db.write((t, record) => deleteIn(t.emailMessages, id, record)),
    get: (applicationId, id) =>
      db.read((t) =>
        Option.filter(Option.fromNullable(t.emailMessages.get(id)), (m) => m.applicationId === applicationId)
      ),
    find: (id) => db.read((t) => Option.fromNullable(t.emailMessages.get(id))),
    finish: (id, status, at) =>
      db.write((t, record) => {
        const m = t.emailMessages.get(id)
        if (m === undefined || m.status !== "sent") return Option.none()
        const moved: EmailMessage = { ...m, status, updatedAt: at }
        setIn(t.emailMessages, id, moved, record)
        return Option.some(moved)
      }),
    complain: (id, at) =>
      db.write((t, record) => {
        const m = t.emailMessages.get(id)
        if (m === undefined || m.complained) return Option.none()
        const marked: EmailMessage = { ...m, complained: true, updatedAt: at }
        setIn(t.emailMessages, id, marked, record)
        return Option.some(marked)
      }),
    list: (query) =>
      db.read((t) =>
        [...t.emailMessages.values()].filter((m) =>
          m.applicationId === query.applicationId && statusMatches(m, query.status) &&
          (query.domainId === undefined || m.domainId === query.domainId) && queryMatches(m, query.q) &&
          before(m, query.after)
        ).sort(newestFirst).slice(0, query.limit)
      ),
  })),
)
