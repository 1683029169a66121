import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import type { Verification, VerifySend, VerifySettings } from "../../core/verify/model.ts"
import {
  SandboxDestinationsRepo,
  type SendJudged,
  type SendOutcome,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
} from "../../ports/store/verify.ts"
import { admitted, sendGates } from "../../core/verify/send-rules.ts"
import { addTo, deleteIn, memoryTables, pushUnder, type Recorder, removeAt, setIn, violation } from "./db.ts"
import { accountTables } from "./accounts.ts"
import { balanceIn, chargeIn, walletTables } from "./wallet.ts"
import { appendEvents, outboxTables } from "./outbox.ts"

/** The guard's count of one minute of an application's epoch, as the SQL store's `verify_guard` rows sum. */
export interface GuardMinute {
  readonly epoch: number
  readonly minute: number
  readonly sends: number
  readonly verified: number
}

export const verifyTables = () => ({
  verifications: new Map<string, Verification>(),
  sendsByApplication: new Map<string, Array<VerifySend>>(),
  /** By application, then by `${epoch}:${minute}`. */
  guardMinutes: new Map<string, Map<string, GuardMinute>>(),
  verifySettings: new Map<string, VerifySettings>(),
  sandboxDestinations: new Set<string>(),
})

type Tables = ReturnType<typeof verifyTables>

/** The mutable state a transition compares before it writes (as the SQL adapter's compare-and-set). */
const sameState = (a: Verification, b: Verification) =>
  a.status === b.status && a.attempts === b.attempts && a.resends === b.resends && a.codeHash === b.codeHash &&
  a.expiresAt === b.expiresAt

export const VerificationsRepoMemory = Layer.effect(
  VerificationsRepo,
  Effect.map(memoryTables(verifyTables, outboxTables), (db) => {
    const get = (id: string) => db.read((t) => Option.fromNullable(t.verifications.get(id)))
    return {
      insert: (v) =>
        db.write((t, record) => {
          if (t.verifications.has(v.id)) violation(`duplicate verification ${v.id}`)
          setIn(t.verifications, v.id, v, record)
        }),
      get,
      getForUpdate: get,
      update: (v) =>
        db.write((t, record) => {
          if (t.verifications.has(v.id)) setIn(t.verifications, v.id, v, record)
        }),
      transition: (before, next, events, verified) =>
        db.write((t, record) => {
          const current = t.verifications.get(before.id)
          if (current === undefined || !sameState(current, before)) return false
          appendEvents(t, events, record)
          setIn(t.verifications, before.id, next, record)
          if (verified !== null) countGuard(t, record, verified, 0, verified.count)
          return true
        }),
      delete: (id) => db.write((t, record) => deleteIn(t.verifications, id, record)),
      // Transactions are serialized here, so nothing is ever locked by another one.
      lockExpirable: (before, limit) =>
        db.read((t) =>
          [...t.verifications.values()]
            .filter((v) => v.status === "pending" && v.expiresAt <= before)
            .sort((a, b) => a.expiresAt - b.expiresAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .slice(0, limit)
        ),
      earliestPendingExpiry: db.read((t) => {
        let at: number | undefined
        for (const v of t.verifications.values()) {
          if (v.status === "pending" && (at === undefined || v.expiresAt < at)) at = v.expiresAt
        }
        return Option.fromNullable(at as Millis | undefined)
      }),
      countSandboxStarts: (applicationId) =>
        db.read((t) => {
          let n = 0
          for (const v of t.verifications.values()) {
            if (v.applicationId === applicationId && (v.mode === "test" || v.mode === "partner_test")) n++
          }
          return n
        }),
    }
  }),
)

const countSends = (t: Tables, applicationId: string, since: number, keep: (s: VerifySend) => boolean) => {
  let n = 0
  for (const s of t.sendsByApplication.get(applicationId) ?? []) if (s.sentAt >= since && keep(s)) n++
  return n
}

/** The day's spend of an application: its sends' prices since `dayStart`. */
const spentSince = (t: Tables, applicationId: string, dayStart: number) => {
  let spent = 0
  for (const s of t.sendsByApplication.get(applicationId) ?? []) if (s.sentAt >= dayStart) spent += s.priceHalalas
  return spent
}

/**
 * The memory store derives the caps' and the day's counts from its sends (transactions are serialized here, so
 * nothing needs the SQL store's per-destination rows and counters); the guard's count it keeps as the SQL store
 * does, by the epoch and minute each send and verified credit was counted in when it was written (an unpause in
 * the same millisecond as a send, or a credit of a code's resends to the minute it started, leave the two alike).
 */
const countGuard = (
  t: Tables,
  record: Recorder,
  slot: { readonly applicationId: string; readonly epoch: number; readonly minute: number },
  sends: number,
  verified: number,
) => {
  let minutes = t.guardMinutes.get(slot.applicationId)
  if (minutes === undefined) t.guardMinutes.set(slot.applicationId, minutes = new Map())
  const key = `${slot.epoch}:${slot.minute}`
  const now = minutes.get(key) ?? { epoch: slot.epoch, minute: slot.minute, sends: 0, verified: 0 }
  setIn(minutes, key, { ...now, sends: now.sends + sends, verified: now.verified + verified }, record)
}

const guardStats = (t: Tables, applicationId: string, epoch: number, since: number) => {
  let sends = 0
  let verified = 0
  for (const m of t.guardMinutes.get(applicationId)?.values() ?? []) {
    if (m.epoch !== epoch || m.minute < since) continue
    sends += m.sends
    verified += m.verified
  }
  return { sends, verified }
}

export const VerifySendsRepoMemory = Layer.effect(
  VerifySendsRepo,
  Effect.map(memoryTables(verifyTables, accountTables, walletTables), (db) => ({
    // Verify's send rules (core/verify/send-rules.ts) as they are stated: `sendGates` on what the tables hold, the
    // send written whole when `admitted`, nothing otherwise (the SQL store's statement judges the same gates on its
    // snapshot). One atomic step that, like the SQL statement waiting for rows a transaction holds, waits for an
    // open transaction (in one, it joins it).
    send: (a) =>
      db.withTransaction(db.write((t, record): SendOutcome => {
        const s = a.send
        const saved = t.verifySettings.get(s.applicationId)
        if (JSON.stringify(saved ?? null) !== JSON.stringify(Option.getOrNull(a.settings))) {
          return { _tag: "Stale", settings: Option.fromNullable(saved) }
        }
        const application = t.applications.get(s.applicationId)
        const unpausedAt = (application?.unpausedAt ?? null) as Millis | null
        const gates = sendGates(a, {
          destinationSends: countSends(t, s.applicationId, a.since, (x) => x.to === s.to),
          clientIpSends: s.clientIp === null
            ? null
            : countSends(t, s.applicationId, a.since, (x) => x.clientIp === s.clientIp),
          daySpent: a.spend === null ? 0 : spentSince(t, s.applicationId, a.spend.dayStart),
          paused: application?.paused ?? false,
          balance: a.charge === null ? null : balanceIn(t, a.charge.accountId),
        })
        const judged: SendJudged = {
          _tag: "Judged",
          destination: gates.destination,
          clientIp: gates.clientIp,
          spendAdmitted: gates.spendAdmitted,
          paused: gates.paused,
          unpausedAt,
          charged: a.charge === null ? null : Option.none(),
          guard: null,
        }
        if (!admitted(gates)) return judged
        const charged = a.charge === null ? null : chargeIn(t, record, a.charge)
        if (charged !== null && Option.isNone(charged)) return violation("a send admitted by its gates was not charged")
        const v = a.verification.value
        if (a.verification._tag === "Insert") {
          if (t.verifications.has(v.id)) violation(`duplicate verification ${v.id}`)
          setIn(t.verifications, v.id, v, record)
        } else if (t.verifications.has(v.id)) setIn(t.verifications, v.id, v, record)
        pushUnder(t.sendsByApplication, s.applicationId, s, record)
        countGuard(t, record, { applicationId: s.applicationId, epoch: unpausedAt ?? 0, minute: a.guardMinute }, 1, 0)
        return {
          ...judged,
          charged,
          guard: a.guardSince === null ? null : guardStats(t, s.applicationId, unpausedAt ?? 0, a.guardSince),
        }
      })),
    // The caps' and the day's counts are derived from the sends: dropping the send (`release`) takes it back from
    // them; the guard's minute is counted down as in the SQL store (a minute with no row stays without one).
    uncount: (_send, slots) =>
      db.write((t, record) => {
        if (t.guardMinutes.get(slots.guard.applicationId)?.has(`${slots.guard.epoch}:${slots.guard.minute}`)) {
          countGuard(t, record, slots.guard, -1, 0)
        }
      }),
    // The latest matching send goes, as in the SQL adapter (highest id).
    release: (send) =>
      db.write((t, record) => {
        const sends = t.sendsByApplication.get(send.applicationId) ?? []
        for (let i = sends.length - 1; i >= 0; i--) {
          if (sends[i].verificationId === send.verificationId && sends[i].sentAt === send.sentAt) {
            return removeAt(sends, i, record)
          }
        }
      }),
    guardStats: (applicationId, epoch, since) => db.read((t) => guardStats(t, applicationId, epoch, since)),
    insert: (send) => db.write((t, record) => pushUnder(t.sendsByApplication, send.applicationId, send, record)),
  })),
)

export const VerifySettingsRepoMemory = Layer.effect(
  VerifySettingsRepo,
  Effect.map(memoryTables(verifyTables), (db) => ({
    get: (applicationId) => db.read((t) => Option.fromNullable(t.verifySettings.get(applicationId))),
    put: (applicationId, settings) => db.write((t, record) => setIn(t.verifySettings, applicationId, settings, record)),
  })),
)

const destinationKey = (accountId: string, to: string) => `${accountId}\u0000${to}`

export const SandboxDestinationsRepoMemory = Layer.effect(
  SandboxDestinationsRepo,
  Effect.map(memoryTables(verifyTables), (db) => ({
    add: (accountId, to) =>
      db.write((t, record) => addTo(t.sandboxDestinations, destinationKey(accountId, to), record)),
    has: (accountId, to) => db.read((t) => t.sandboxDestinations.has(destinationKey(accountId, to))),
  })),
)
