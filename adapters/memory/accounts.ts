import { Effect, Layer, Option } from "effect"
import type { Account, Application } from "../../core/accounts/model.ts"
import {
  AccountsRepo,
  type ApplicationProfile,
  ApplicationProfilesRepo,
  ApplicationsRepo,
} from "../../ports/store/accounts.ts"
import { memoryTables, setIn, violation } from "./db.ts"

/** The accounts product's tables. */
export const accountTables = () => ({
  accounts: new Map<string, Account>(),
  applications: new Map<string, Application>(),
  applicationProfiles: new Map<string, ApplicationProfile>(),
})

export const AccountsRepoMemory = Layer.effect(
  AccountsRepo,
  Effect.map(memoryTables(accountTables), (db) => ({
    insert: (account) =>
      db.write((t, record) => {
        if (t.accounts.has(account.id)) violation(`duplicate account ${account.id}`)
        setIn(t.accounts, account.id, account, record)
      }),
    get: (id) => db.read((t) => Option.fromNullable(t.accounts.get(id))),
    count: db.read((t) => t.accounts.size),
    oldest: db.read((t) => {
      let found: Account | undefined
      for (const a of t.accounts.values()) {
        if (
          found === undefined || a.createdAt < found.createdAt || (a.createdAt === found.createdAt && a.id < found.id)
        ) {
          found = a
        }
      }
      return Option.fromNullable(found)
    }),
    recent: (limit) =>
      db.read((t) =>
        [...t.accounts.values()]
          .sort((x, y) => y.createdAt - x.createdAt || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
          .slice(0, limit)
      ),
  })),
)

/** As the SQL adapter: the id wins, else the earliest application with that external id. */
const findInAccount = (applications: Iterable<Application>, accountId: string, idOrExternalId: string) => {
  let found: Application | undefined
  for (const a of applications) {
    if (a.accountId !== accountId || a.externalId !== idOrExternalId) continue
    if (found === undefined || a.createdAt < found.createdAt || (a.createdAt === found.createdAt && a.id < found.id)) {
      found = a
    }
  }
  return found
}

export const ApplicationsRepoMemory = Layer.effect(
  ApplicationsRepo,
  Effect.map(memoryTables(accountTables), (db) => {
    const get = (id: string) => db.read((t) => Option.fromNullable(t.applications.get(id)))
    return {
      insert: (application) =>
        db.write((t, record) => {
          if (t.applications.has(application.id)) violation(`duplicate application ${application.id}`)
          setIn(t.applications, application.id, application, record)
        }),
      get,
      getForUpdate: get,
      findInAccount: (accountId, idOrExternalId) =>
        db.read((t) => {
          const byId = t.applications.get(idOrExternalId)
          if (byId !== undefined && byId.accountId === accountId) return Option.some(byId)
          return Option.fromNullable(findInAccount(t.applications.values(), accountId, idOrExternalId))
        }),
      update: (application) =>
        db.write((t, record) => {
          const current = t.applications.get(application.id)
          if (current !== undefined) {
            setIn(t.applications, application.id, { ...application, createdAt: current.createdAt }, record)
          }
        }),
      pageInAccount: (accountId, after, limit) =>
        db.read((t) =>
          [...t.applications.values()]
            .filter((a) =>
              a.accountId === accountId &&
              (after === null || a.createdAt < after.createdAt || (a.createdAt === after.createdAt && a.id < after.id))
            )
            .sort((x, y) => y.createdAt - x.createdAt || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
            .slice(0, limit)
        ),
    }
  }),
)

/** As the SQL columns: an application without a stored profile has an empty one, changed when it was made. */
export const ApplicationProfilesRepoMemory = Layer.effect(
  ApplicationProfilesRepo,
  Effect.map(memoryTables(accountTables), (db) => ({
    get: (id) =>
      db.read((t) => {
        const app = t.applications.get(id)
        if (app === undefined) return Option.none()
        return Option.some(
          t.applicationProfiles.get(id) ?? {
            website: null,
            logo: null,
            reasonCode: null,
            appealable: false,
            statusBeforeArchive: null,
            updatedAt: app.createdAt,
          },
        )
      }),
    put: (id, profile) =>
      db.write((t, record) => {
        if (t.applications.has(id)) setIn(t.applicationProfiles, id, profile, record)
      }),
  })),
)
