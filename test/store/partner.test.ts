/**
 * The store contract of the Partner API's client applications (DECISIONS 13): the partner's list (filters,
 * order, positions, profile and settings in the row), the `external_id` claim and its holder, and logos by
 * content hash — the same on the memory store, PGlite and PostgreSQL.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Fiber, type Layer, Option } from "effect"
import type { Store } from "../../adapters/products.ts"
import { MemoryStore } from "../../adapters/memory/store.ts"
import { PgliteStoreLive, PgStoreLive } from "../../adapters/sql/store.ts"
import type { AccountId, Millis } from "../../core/shared/brands.ts"
import { defaultSettings } from "../../core/verify/settings.ts"
import { AccountsRepo, ApplicationsRepo, Transactor } from "../../ports/store/mod.ts"
import { ApplicationProfilesRepo } from "../../ports/store/accounts.ts"
import { LogosRepo, type PartnerApplicationFilter, PartnerApplicationsRepo } from "../../ports/store/partner.ts"
import { VerifySettingsRepo } from "../../ports/store/verify.ts"
import { account, application, freshPgStore, uuid } from "./fixtures.ts"

const all: PartnerApplicationFilter = { status: null, externalId: null, q: null }

const contract = <E>(name: string, store: Layer.Layer<Store, E>, concurrent: boolean) =>
  layer(store, { excludeTestServices: true, timeout: "60 seconds" })(name, (it) => {
    it.effect("page: newest first (ties by the greater id), after a position; profile and settings in each row", () =>
      Effect.gen(function* () {
        const partner = account({ partner: true })
        yield* (yield* AccountsRepo).insert(partner)
        const apps = yield* ApplicationsRepo
        const made = [
          application(partner.id, { name: "Alpha Bakery", externalId: "EXT-a", createdAt: 1_000, status: "pending" }),
          application(partner.id, { name: "beta cafe", externalId: null, createdAt: 2_000 }),
          application(partner.id, { name: "Gamma", externalId: "g-2", createdAt: 2_000, status: "rejected" }),
          application(partner.id, { name: "Old", createdAt: 500, status: "archived" }),
          application(partner.id, { name: "Off", createdAt: 400, status: "disabled" }),
        ]
        for (const a of made) yield* apps.insert(a)
        // Another account's application is never in the list.
        yield* apps.insert(application(uuid() as AccountId, { name: "Alpha Bakery", createdAt: 3_000 }))
        const settings = { ...defaultSettings, code_length: 4 }
        yield* (yield* VerifySettingsRepo).put(made[0].id, settings)
        const profile = {
          website: "https://alpha.example.sa",
          logo: { sha256: "a".repeat(64), ext: "png" },
          reasonCode: null,
          appealable: false,
          statusBeforeArchive: null,
          updatedAt: 1_500 as Millis,
        }
        yield* (yield* ApplicationProfilesRepo).put(made[0].id, profile)
        const repo = yield* PartnerApplicationsRepo
        const ids = (rows: ReadonlyArray<{ application: { id: string } }>) => rows.map((r) => r.application.id)
        const tied = [made[1], made[2]].sort((x, y) => (x.id < y.id ? 1 : -1))
        const page = yield* repo.page(partner.id, all, null, 10)
        assert.deepStrictEqual(ids(page), [tied[0].id, tied[1].id, made[0].id, made[4].id])
        const alpha = page.find((r) => r.application.id === made[0].id)!
        assert.deepStrictEqual(alpha.application, made[0])
        assert.deepStrictEqual(alpha.profile, profile)
        assert.deepStrictEqual(alpha.settings, settings)
        const beta = page.find((r) => r.application.id === made[1].id)!
        assert.strictEqual(beta.settings, null)
        assert.deepStrictEqual(beta.profile, {
          website: null,
          logo: null,
          reasonCode: null,
          appealable: false,
          statusBeforeArchive: null,
          updatedAt: 2_000,
        })
        assert.deepStrictEqual(
          ids(yield* repo.page(partner.id, all, { createdAt: tied[0].createdAt, id: tied[0].id }, 2)),
          [tied[1].id, made[0].id],
        )
        assert.deepStrictEqual(ids(yield* repo.page(partner.id, all, null, 1)), [tied[0].id])
      }))

    it.effect("page filters: status (suspended with disabled; archived only when asked), external_id exactly, q", () =>
      Effect.gen(function* () {
        const partner = account({ partner: true })
        const apps = yield* ApplicationsRepo
        const made = [
          application(partner.id, { name: "Alpha Bakery", externalId: "EXT-a", createdAt: 1_000, status: "pending" }),
          application(partner.id, { name: "beta 100%_cafe", externalId: null, createdAt: 2_000 }),
          application(partner.id, { name: "Old", externalId: "old-1", createdAt: 500, status: "archived" }),
          application(partner.id, { name: "Off", createdAt: 400, status: "disabled" }),
          application(partner.id, { name: "Susp", createdAt: 300, status: "suspended" }),
          application(partner.id, { name: "Émile", createdAt: 200 }),
        ]
        for (const a of made) yield* apps.insert(a)
        const repo = yield* PartnerApplicationsRepo
        const names = (filter: Partial<PartnerApplicationFilter>) =>
          Effect.map(
            repo.page(partner.id, { ...all, ...filter }, null, 100),
            (rows) => rows.map((r) => r.application.name),
          )
        assert.deepStrictEqual(yield* names({}), ["beta 100%_cafe", "Alpha Bakery", "Off", "Susp", "Émile"])
        assert.deepStrictEqual(yield* names({ status: "archived" }), ["Old"])
        assert.deepStrictEqual(yield* names({ status: "suspended" }), ["Off", "Susp"])
        assert.deepStrictEqual(yield* names({ status: "pending" }), ["Alpha Bakery"])
        assert.deepStrictEqual(yield* names({ externalId: "EXT-a" }), ["Alpha Bakery"])
        assert.deepStrictEqual(yield* names({ externalId: "ext-a" }), [])
        assert.deepStrictEqual(yield* names({ externalId: "old-1" }), [])
        assert.deepStrictEqual(yield* names({ externalId: "old-1", status: "archived" }), ["Old"])
        // q is already folded (ASCII lower case) by the caller.
        assert.deepStrictEqual(yield* names({ q: "bakery" }), ["Alpha Bakery"])
        assert.deepStrictEqual(yield* names({ q: "ext-" }), ["Alpha Bakery"])
        assert.deepStrictEqual(yield* names({ q: "%_" }), ["beta 100%_cafe"])
        assert.deepStrictEqual(yield* names({ q: "_" }), ["beta 100%_cafe"])
        assert.deepStrictEqual(yield* names({ q: made[3].id }), ["Off"])
        assert.deepStrictEqual(yield* names({ q: "é" }), [])
        assert.deepStrictEqual(yield* names({ q: "mile" }), ["Émile"])
      }))

    it.effect("holderOf: the account's application with that external_id (any status), none elsewhere", () =>
      Effect.gen(function* () {
        const partner = account({ partner: true })
        const apps = yield* ApplicationsRepo
        const held = application(partner.id, { externalId: "m-1", status: "archived" })
        yield* apps.insert(held)
        yield* apps.insert(application(uuid() as AccountId, { externalId: "m-2" }))
        const repo = yield* PartnerApplicationsRepo
        assert.deepStrictEqual(yield* repo.holderOf(partner.id, "m-1"), Option.some(held.id))
        assert.isTrue(Option.isNone(yield* repo.holderOf(partner.id, "m-2")))
        assert.isTrue(Option.isNone(yield* repo.holderOf(partner.id, "M-1")))
      }))

    it.effect("claimExternalId: held until the transaction ends, so two claims of one external_id never both find it free", () =>
      Effect.gen(function* () {
        const partner = account({ partner: true })
        const repo = yield* PartnerApplicationsRepo
        const apps = yield* ApplicationsRepo
        const tx = yield* Transactor
        /** Claims, looks, and makes an application when free; answers whether it made one. */
        const provision = tx.withTransaction(Effect.gen(function* () {
          yield* repo.claimExternalId(partner.id, "race")
          if (Option.isSome(yield* repo.holderOf(partner.id, "race"))) return false
          yield* Effect.sleep("50 millis")
          yield* apps.insert(application(partner.id, { externalId: "race" }))
          return true
        }))
        const made = concurrent
          ? yield* Effect.all([provision, provision], { concurrency: 2 })
          : [yield* provision, yield* provision]
        assert.deepStrictEqual([...made].sort(), [false, true])
        // Another external_id is not held up by it.
        const other = yield* Effect.fork(tx.withTransaction(repo.claimExternalId(partner.id, "other")))
        yield* Fiber.join(other)
      }))

    it.effect("logos: put by hash (a second put of the hash keeps the first), get the bytes back whole", () =>
      Effect.gen(function* () {
        const logos = yield* LogosRepo
        const sha256 = uuid().replaceAll("-", "").padEnd(64, "0")
        const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256)
        yield* logos.put({ sha256, ext: "webp", bytes, createdAt: 5 as Millis })
        yield* logos.put({ sha256, ext: "png", bytes: Uint8Array.from([1]), createdAt: 6 as Millis })
        const found = yield* logos.get(sha256)
        assert.isTrue(Option.isSome(found))
        const logo = Option.getOrThrow(found)
        assert.strictEqual(logo.ext, "webp")
        assert.strictEqual(logo.createdAt, 5)
        assert.deepStrictEqual(new Uint8Array(logo.bytes), bytes)
        assert.isTrue(Option.isNone(yield* logos.get("f".repeat(64))))
      }))
  })

contract("memory store", MemoryStore, false)
contract("pglite (memory://)", PgliteStoreLive("memory://"), false)

const databaseUrl = process.env.DATABASE_URL
describe.runIf(databaseUrl !== undefined)("postgres (DATABASE_URL)", () => {
  contract("postgres store, fresh database", freshPgStore(databaseUrl!, PgStoreLive), true)
})
