import { Effect, Layer, Option } from "effect"
import { type CredentialContext, CredentialsRepo } from "../../ports/store/credentials.ts"
import { memoryTables, setIn, type TablesOf, violation } from "./db.ts"

import type { Credential } from "../../core/keys/model.ts"
import { accountTables } from "./accounts.ts"
import { rateLimitTables } from "./rate-limit.ts"
/** Keys and tokens (the accounts product). */
export const credentialTables = () => ({
  credentials: new Map<string, Credential>(),
  credentialIdByHash: new Map<string, string>(),
})

type Tables = TablesOf<[typeof credentialTables, typeof accountTables, typeof rateLimitTables]>

/** As the SQL join: no account, no context; a missing application reads as null. */
const contextOf = (t: Tables, hash: string): Option.Option<CredentialContext> => {
  const id = t.credentialIdByHash.get(hash)
  const credential = id === undefined ? undefined : t.credentials.get(id)
  if (credential === undefined) return Option.none()
  const account = t.accounts.get(credential.accountId)
  if (account === undefined) return Option.none()
  const application = credential.applicationId === null ? null : t.applications.get(credential.applicationId) ?? null
  return Option.some({ credential, account, application })
}

export const CredentialsRepoMemory = Layer.effect(
  CredentialsRepo,
  Effect.map(memoryTables(credentialTables, accountTables, rateLimitTables), (db) => ({
    insert: (credential) =>
      db.write((t, record) => {
        if (t.credentials.has(credential.id)) violation(`duplicate credential ${credential.id}`)
        if (t.credentialIdByHash.has(credential.hash)) violation("duplicate credential hash")
        setIn(t.credentials, credential.id, credential, record)
        setIn(t.credentialIdByHash, credential.hash, credential.id, record)
      }),
    findByHash: (hash) => db.read((t) => contextOf(t, hash)),
    present: (hash, windowStart) =>
      db.writeUnlogged((t) => {
        let window = t.rateWindows.get(windowStart)
        if (window === undefined) t.rateWindows.set(windowStart, window = new Map())
        const count = (window.get(hash) ?? 0) + 1
        window.set(hash, count)
        return { count, found: contextOf(t, hash) }
      }),
    holderByEmail: (accountId, email) =>
      db.read((t) => {
        const held = [...t.credentials.values()].find((c) =>
          c.accountId === accountId && c.holder?.email?.toLowerCase() === email.toLowerCase()
        )
        return Option.fromNullable(held?.holder?.memberId)
      }),
    ofAccount: (accountId) =>
      db.read((t) =>
        [...t.credentials.values()]
          .filter((c) => c.accountId === accountId)
          .sort((x, y) => y.createdAt - x.createdAt || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
      ),
    revoke: (id, at) =>
      db.write((t, record) => {
        const current = t.credentials.get(id)
        if (current === undefined) return Option.none()
        const revoked = { ...current, revokedAt: current.revokedAt ?? at }
        setIn(t.credentials, id, revoked, record)
        return Option.some(revoked)
      }),
  })),
)
