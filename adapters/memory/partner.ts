/** The Partner API's repositories over the memory store: the partner's list, `external_id` claims, logos. */
import { Effect, Layer, Option } from "effect"
import type { Application } from "../../core/accounts/model.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"
import type { ApplicationProfile } from "../../ports/store/accounts.ts"
import {
  LogosRepo,
  type PartnerApplicationFilter,
  PartnerApplicationsRepo,
  searchNeedle,
  type StoredLogo,
} from "../../ports/store/partner.ts"
import { accountTables } from "./accounts.ts"
import { memoryTables, setIn } from "./db.ts"
import { verifyTables } from "./verify.ts"

/** The partner product's tables. */
export const partnerTables = () => ({
  logos: new Map<string, StoredLogo>(),
})

const emptyProfile = (app: Application): ApplicationProfile => ({
  website: null,
  logo: null,
  reasonCode: null,
  appealable: false,
  statusBeforeArchive: null,
  updatedAt: app.createdAt,
})

/** As the SQL statement: status (suspended with the older disabled; none: all but archived), external_id, q. */
const matches = (app: Application, f: PartnerApplicationFilter): boolean => {
  if (
    f.status === null
      ? app.status === "archived"
      : f.status === "suspended"
      ? app.status !== "suspended" && app.status !== "disabled"
      : app.status !== f.status
  ) return false
  if (f.externalId !== null && app.externalId !== f.externalId) return false
  if (
    f.q !== null && !searchNeedle(app.name).includes(f.q) && !searchNeedle(app.externalId ?? "").includes(f.q) &&
    app.id !== f.q
  ) return false
  return true
}

export const PartnerApplicationsRepoMemory = Layer.effect(
  PartnerApplicationsRepo,
  Effect.map(memoryTables(accountTables, verifyTables), (db) => ({
    page: (accountId, filter, after, limit) =>
      db.read((t) =>
        [...t.applications.values()]
          .filter((a) =>
            a.accountId === accountId && matches(a, filter) &&
            (after === null || a.createdAt < after.createdAt || (a.createdAt === after.createdAt && a.id < after.id))
          )
          .sort((x, y) => y.createdAt - x.createdAt || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
          .slice(0, limit)
          .map((application) => ({
            application,
            profile: t.applicationProfiles.get(application.id) ?? emptyProfile(application),
            settings: t.verifySettings.get(application.id) ?? null,
          }))
      ),
    // One transaction runs at once on the memory store: nothing to hold.
    claimExternalId: () => Effect.void,
    holderOf: (accountId, externalId) =>
      db.read((t) => {
        for (const a of t.applications.values()) {
          if (a.accountId === accountId && a.externalId === externalId) return Option.some(a.id as ApplicationId)
        }
        return Option.none()
      }),
  })),
)

export const LogosRepoMemory = Layer.effect(
  LogosRepo,
  Effect.map(memoryTables(partnerTables), (db) => ({
    put: (logo) =>
      db.write((t, record) => {
        if (!t.logos.has(logo.sha256)) setIn(t.logos, logo.sha256, { ...logo, bytes: logo.bytes.slice() }, record)
      }),
    get: (sha256) => db.read((t) => Option.fromNullable(t.logos.get(sha256))),
  })),
)
