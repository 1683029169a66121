import { Effect, Layer, Option } from "effect"
import { CredentialsRepo } from "../../ports/store/credentials.ts"
import { MemoryDb, setIn, violation } from "./db.ts"

export const CredentialsRepoMemory = Layer.effect(
  CredentialsRepo,
  Effect.map(MemoryDb, (db) => ({
    insert: (credential) =>
      db.write((t, record) => {
        if (t.credentials.has(credential.id)) violation(`duplicate credential ${credential.id}`)
        if (t.credentialIdByHash.has(credential.hash)) violation("duplicate credential hash")
        setIn(t.credentials, credential.id, credential, record)
        setIn(t.credentialIdByHash, credential.hash, credential.id, record)
      }),
    // As the SQL join: no account, no context; a missing application reads as null.
    findByHash: (hash) =>
      db.read((t) => {
        const id = t.credentialIdByHash.get(hash)
        const credential = id === undefined ? undefined : t.credentials.get(id)
        if (credential === undefined) return Option.none()
        const account = t.accounts.get(credential.accountId)
        if (account === undefined) return Option.none()
        const application = credential.applicationId === null
          ? null
          : t.applications.get(credential.applicationId) ?? null
        return Option.some({ credential, account, application })
      }),
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
