import { Effect, Layer, Option } from "effect"
import type { Account, Application } from "../../core/accounts/model.ts"
import { AccountsRepo, ApplicationsRepo } from "../../ports/store/accounts.ts"
import { memoryTables, setIn, violation } from "./db.ts"

/** The accounts product's tables. */
export const accountTables = () => ({
  accounts: new Map<string, Account>(),
  applications: new Map<string, Application>(),
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
