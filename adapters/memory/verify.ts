import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import type { Verification, VerifySend, VerifySettings } from "../../core/verify/model.ts"
import {
  SandboxDestinationsRepo,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
} from "../../ports/store/verify.ts"
import { addTo, deleteIn, memoryTables, pushUnder, removeAt, setIn, violation } from "./db.ts"

export const verifyTables = () => ({
  verifications: new Map<string, Verification>(),
  sendsByApplication: new Map<string, Array<VerifySend>>(),
  verifySettings: new Map<string, VerifySettings>(),
  sandboxDestinations: new Set<string>(),
})

type Tables = ReturnType<typeof verifyTables>

export const VerificationsRepoMemory = Layer.effect(
  VerificationsRepo,
  Effect.map(memoryTables(verifyTables), (db) => {
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

export const VerifySendsRepoMemory = Layer.effect(
  VerifySendsRepo,
  Effect.map(memoryTables(verifyTables), (db) => ({
    insert: (send) => db.write((t, record) => pushUnder(t.sendsByApplication, send.applicationId, send, record)),
    // The latest matching send goes, as in the SQL adapter (highest id).
    delete: (verificationId, sentAt) =>
      db.write((t, record) => {
        const applicationId = t.verifications.get(verificationId)?.applicationId
        const lists = applicationId === undefined
          ? t.sendsByApplication.values()
          : [t.sendsByApplication.get(applicationId) ?? []]
        for (const sends of lists) {
          for (let i = sends.length - 1; i >= 0; i--) {
            if (sends[i].verificationId === verificationId && sends[i].sentAt === sentAt) {
              return removeAt(sends, i, record)
            }
          }
        }
      }),
    countToDestination: (applicationId, to, since) =>
      db.read((t) => countSends(t, applicationId, since, (s) => s.to === to)),
    countFromIp: (applicationId, clientIp, since) =>
      db.read((t) => countSends(t, applicationId, since, (s) => s.clientIp === clientIp)),
    spendSince: (applicationId, since) =>
      db.read((t) => {
        let spent = 0
        for (const s of t.sendsByApplication.get(applicationId) ?? []) if (s.sentAt >= since) spent += s.priceHalalas
        return spent
      }),
    guardStats: (applicationId, since) =>
      db.read((t) => ({
        sends: countSends(t, applicationId, since, () => true),
        verified: countSends(t, applicationId, since, (s) =>
          t.verifications.get(s.verificationId)?.status === "verified"),
      })),
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
