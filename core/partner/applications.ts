/**
 * A partner's client applications (DECISIONS 13, 16): provisioning, the list, reading and updating one, its
 * lifecycle moves, its logo and bulk moves. Every move goes through `ApplicationLifecycle.move` (the row lock,
 * the pure decision, the `service.*` events in the same transaction). Another partner's application, or an id
 * that names none, is `404 service_not_found` alike: nothing says whether it exists.
 */
import { Clock, Effect, Either, Option } from "effect"
import { Digest } from "../../ports/digest.ts"
import { Secrets } from "../../ports/secrets.ts"
import { type ApplicationProfile, ApplicationProfilesRepo, ApplicationsRepo } from "../../ports/store/accounts.ts"
import { LogosRepo, PartnerApplicationsRepo, searchNeedle } from "../../ports/store/partner.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { VerifySettingsRepo } from "../../ports/store/verify.ts"
import { ApplicationLifecycle, type Edits } from "../accounts/lifecycle.ts"
import { page } from "../accounts/lists.ts"
import type { Application } from "../accounts/model.ts"
import { isApiError, ServiceNotFound } from "../errors.ts"
import { Lists } from "../limits.ts"
import type { PartnerPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import type { AccountId, ApplicationId, Millis } from "../shared/brands.ts"
import { isUuid } from "../shared/brands.ts"
import { untracedStacks } from "../shared/tracing.ts"
import type { VerifySettings } from "../verify/model.ts"
import { defaultSettings } from "../verify/settings.ts"
import { ExternalIdTaken } from "./application-errors.ts"
import type { LifecycleStatus, Move } from "./lifecycle.ts"
import { type LogoExt, serveLogo } from "./logos.ts"
import { type PartnerApplication, partnerRecord } from "./record.ts"

/** The six settings a partner may give, each optional. */
export interface SettingsInput {
  readonly code_length?: number
  readonly code_lifetime_minutes?: number
  readonly max_attempts?: number
  readonly hourly_cap_per_destination?: number
  readonly max_per_ip_per_hour?: number
  readonly daily_spend_cap_halalas?: number | null
}

export interface LogoInput {
  readonly ext: LogoExt
  readonly bytes: Uint8Array
}

/** Every input carries the request's `{base_url}`, for `logo_url`. */
interface Base {
  readonly baseUrl: string
}

export interface ProvisionInput extends Base {
  readonly name: string
  readonly website: string
  readonly externalId?: string
  readonly logo?: LogoInput | null
  readonly settings?: SettingsInput
}

export interface UpdateInput extends Base {
  readonly id: string
  readonly name?: string
  readonly website?: string
  readonly externalId?: string | null
  readonly settings?: SettingsInput
}

export interface ListInput extends Base {
  readonly status?: LifecycleStatus
  readonly external_id?: string
  readonly q?: string
  readonly limit?: number
  readonly cursor?: string
}

export type BulkAction = "disable" | "resume" | "archive" | "restore"

export interface BulkInput extends Base {
  readonly action: BulkAction
  readonly ids: ReadonlyArray<string>
}

export type BulkResult =
  | { readonly id: string; readonly ok: true; readonly application: PartnerApplication }
  | { readonly id: string; readonly ok: false; readonly error: string; readonly status?: string }

const bulkMoves: Readonly<Record<BulkAction, Move>> = {
  disable: { _tag: "Disable" },
  resume: { _tag: "Resume" },
  archive: { _tag: "Archive" },
  restore: { _tag: "Restore" },
}

const serviceNotFound = new ServiceNotFound({})

/** Merges what a partner gave into the application's settings (the console's guard kept). */
const mergeSettings = (current: VerifySettings, input: SettingsInput): VerifySettings => ({
  ...current,
  ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
})

const sameSettings = (a: VerifySettings, b: VerifySettings) => JSON.stringify(a) === JSON.stringify(b)

export class PartnerApplications extends Effect.Service<PartnerApplications>()("core/PartnerApplications", {
  effect: Effect.gen(function* () {
    const apps = yield* ApplicationsRepo
    const profiles = yield* ApplicationProfilesRepo
    const settingsRepo = yield* VerifySettingsRepo
    const partnerRepo = yield* PartnerApplicationsRepo
    const logos = yield* LogosRepo
    const digest = yield* Digest
    const secrets = yield* Secrets
    const tx = yield* Transactor
    const lifecycle = yield* ApplicationLifecycle
    const cursors = yield* makeCursors

    /** The id as stored (UUIDs are kept lower-case), or undefined when it can name no application. */
    const idOf = (id: string): ApplicationId | undefined => isUuid(id) ? id.toLowerCase() as ApplicationId : undefined

    const record = (app: Application, profile: ApplicationProfile, baseUrl: string) =>
      Effect.map(
        settingsRepo.get(app.id),
        (settings) => partnerRecord(app, profile, Option.getOrNull(settings), baseUrl),
      )

    /** The partner's application under its row lock (inside a transaction), else `service_not_found`. */
    const lockOwned = (p: PartnerPrincipal, id: string) =>
      Effect.gen(function* () {
        const appId = idOf(id)
        const found = appId === undefined ? Option.none() : yield* apps.getForUpdate(appId)
        if (Option.isNone(found) || found.value.accountId !== p.account.id) return yield* serviceNotFound
        return { app: found.value, profile: Option.getOrThrow(yield* profiles.get(found.value.id)) }
      })

    /** Claims `externalId` in the account for `self` (or a new application): `409 external_id_taken` when held. */
    const claim = (accountId: AccountId, externalId: string, self: ApplicationId | null) =>
      Effect.gen(function* () {
        yield* partnerRepo.claimExternalId(accountId, externalId)
        const holder = yield* partnerRepo.holderOf(accountId, externalId)
        if (Option.isSome(holder) && holder.value !== self) {
          return yield* new ExternalIdTaken({
            message: "Another client application of yours has this external_id.",
            application_id: holder.value,
          })
        }
      })

    const storeLogo = (logo: LogoInput, now: Millis) =>
      Effect.gen(function* () {
        const sha256 = digest.sha256Hex(logo.bytes)
        yield* logos.put({ sha256, ext: logo.ext, bytes: logo.bytes, createdAt: now })
        return { sha256, ext: logo.ext as string }
      })

    /** A lifecycle move of the partner's application, and its record as it is after. */
    const moveOwned = <const M extends Move>(
      p: PartnerPrincipal,
      id: string,
      m: M,
      baseUrl: string,
      edits: Edits = {},
    ) => {
      const appId = idOf(id)
      if (appId === undefined) return Effect.fail(serviceNotFound)
      return lifecycle.move(
        appId,
        m,
        edits,
        (app) => app.accountId === p.account.id ? Effect.void : Effect.fail(serviceNotFound),
      ).pipe(
        Effect.catchTag("not_found", () => Effect.fail(serviceNotFound)),
        Effect.flatMap((moved) => record(moved.application, moved.profile, baseUrl)),
      )
    }

    const provision = Effect.fn("PartnerApplications.provision", untracedStacks)(
      function* (p: PartnerPrincipal, input: ProvisionInput) {
        return yield* tx.withTransaction(Effect.gen(function* () {
          if (input.externalId !== undefined) yield* claim(p.account.id, input.externalId, null)
          const now = yield* Clock.currentTimeMillis
          const app: Application = {
            id: (yield* secrets.uuid) as ApplicationId,
            accountId: p.account.id,
            name: input.name,
            status: "pending",
            externalId: input.externalId ?? null,
            paused: false,
            unpausedAt: null,
            approvedAt: null,
            createdAt: now,
          }
          const profile: ApplicationProfile = {
            website: input.website,
            logo: input.logo ? yield* storeLogo(input.logo, now) : null,
            reasonCode: null,
            appealable: false,
            statusBeforeArchive: null,
            updatedAt: now,
          }
          yield* apps.insert(app)
          yield* profiles.put(app.id, profile)
          const settings = input.settings === undefined ? null : mergeSettings(defaultSettings, input.settings)
          if (settings !== null) yield* settingsRepo.put(app.id, settings)
          return partnerRecord(app, profile, settings, input.baseUrl)
        }))
      },
    )

    const show = Effect.fn("PartnerApplications.show", untracedStacks)(
      function* (p: PartnerPrincipal, input: Base & { readonly id: string }) {
        const appId = idOf(input.id)
        const found = appId === undefined ? Option.none() : yield* apps.get(appId)
        if (Option.isNone(found) || found.value.accountId !== p.account.id) return yield* serviceNotFound
        return yield* record(found.value, Option.getOrThrow(yield* profiles.get(found.value.id)), input.baseUrl)
      },
    )

    /**
     * A name or website that changes is a brand change (`active`, `rejected` → `pending` with
     * `service.review_requested`; refused on `suspended` and `archived`); unchanged values, `external_id` and
     * settings move nothing and are taken in any state.
     */
    const update = Effect.fn("PartnerApplications.update", untracedStacks)(
      function* (p: PartnerPrincipal, input: UpdateInput) {
        return yield* tx.withTransaction(Effect.gen(function* () {
          const { app, profile } = yield* lockOwned(p, input.id)
          const changed: Array<"name" | "website"> = []
          if (input.name !== undefined && input.name !== app.name) changed.push("name")
          if (input.website !== undefined && input.website !== profile.website) changed.push("website")
          const externalChanged = input.externalId !== undefined && input.externalId !== app.externalId
          if (externalChanged && input.externalId != null) yield* claim(p.account.id, input.externalId, app.id)
          const edits: Edits = {
            name: changed.includes("name") ? input.name : undefined,
            website: changed.includes("website") ? input.website : undefined,
            externalId: externalChanged ? input.externalId : undefined,
          }
          // Locked above: it exists.
          const moved = yield* lifecycle.move(
            app.id,
            changed.length > 0 ? { _tag: "ChangeBrand", changed } : { _tag: "Edit" },
            edits,
          ).pipe(Effect.catchTag("not_found", () => Effect.fail(serviceNotFound)))
          let profileAfter = moved.profile
          const current = Option.getOrNull(yield* settingsRepo.get(app.id))
          let settings = current
          if (input.settings !== undefined) {
            const next = mergeSettings(current ?? defaultSettings, input.settings)
            if (!sameSettings(next, current ?? defaultSettings)) {
              yield* settingsRepo.put(app.id, next)
              settings = next
              profileAfter = { ...profileAfter, updatedAt: yield* Clock.currentTimeMillis }
              yield* profiles.put(app.id, profileAfter)
            }
          }
          return partnerRecord(moved.application, profileAfter, settings, input.baseUrl)
        }))
      },
    )

    const list = Effect.fn("PartnerApplications.list", untracedStacks)(function* (p: PartnerPrincipal, q: ListInput) {
      const filter = {
        status: q.status ?? null,
        externalId: q.external_id ?? null,
        q: q.q === undefined || q.q === "" ? null : searchNeedle(q.q),
      }
      // A cursor is bound to the partner and to the filter it paged.
      const listName = `partner.applications:${JSON.stringify([filter.status, filter.externalId, filter.q])}`
      let after: { createdAt: number; id: string } | null = null
      if (q.cursor !== undefined) {
        const position = cursors.read(listName, p.account.id, q.cursor)
        if (Either.isLeft(position)) return yield* position.left
        after = { createdAt: Number(position.right[0]), id: String(position.right[1]) }
      }
      const limit = q.limit ?? Lists.defaultLimit
      // One more than the page tells whether there is a next one.
      const found = yield* partnerRepo.page(p.account.id, filter, after, limit + 1)
      const shown = found.slice(0, limit)
      const last = shown[shown.length - 1]
      const next = found.length > limit
        ? cursors.make(listName, p.account.id, [last.application.createdAt, last.application.id])
        : null
      return page(shown.map((r) => partnerRecord(r.application, r.profile, r.settings, q.baseUrl)), next)
    })

    /** A move (generic, so its refusals are the move's own: `RefusalOf`), in a span as `Effect.fn` would. */
    const move = <const M extends Move>(p: PartnerPrincipal, id: string, m: M, baseUrl: string) =>
      Effect.withSpan(moveOwned(p, id, m, baseUrl), "PartnerApplications.move", untracedStacks)

    /** A logo set: on `rejected` back to review; on `active` or `pending` no move; the same logo again: no move. */
    const setLogo = Effect.fn("PartnerApplications.setLogo", untracedStacks)(
      function* (p: PartnerPrincipal, input: Base & { readonly id: string; readonly logo: LogoInput }) {
        return yield* tx.withTransaction(Effect.gen(function* () {
          const { app, profile } = yield* lockOwned(p, input.id)
          const stored = yield* storeLogo(input.logo, yield* Clock.currentTimeMillis)
          const same = profile.logo?.sha256 === stored.sha256 && profile.logo.ext === stored.ext
          return yield* moveOwned(p, app.id, same ? { _tag: "Edit" } : { _tag: "ChangeLogo" }, input.baseUrl, {
            logo: same ? undefined : stored,
          })
        }))
      },
    )

    /** A logo removed (`logo_url` null after): as a logo set; removing none is no move. */
    const removeLogo = Effect.fn("PartnerApplications.removeLogo", untracedStacks)(
      function* (p: PartnerPrincipal, input: Base & { readonly id: string }) {
        return yield* tx.withTransaction(Effect.gen(function* () {
          const { app, profile } = yield* lockOwned(p, input.id)
          return yield* profile.logo === null
            ? moveOwned(p, app.id, { _tag: "Edit" }, input.baseUrl)
            : moveOwned(p, app.id, { _tag: "ChangeLogo" }, input.baseUrl, { logo: null })
        }))
      },
    )

    /** Each id its own move (its own transaction), in order; a refusal is that id's result alone. */
    const bulk = Effect.fn("PartnerApplications.bulk", untracedStacks)(
      function* (p: PartnerPrincipal, input: BulkInput) {
        const data: Array<BulkResult> = []
        for (const id of input.ids) {
          const moved = yield* Effect.either(moveOwned(p, id, bulkMoves[input.action], input.baseUrl))
          if (Either.isRight(moved)) {
            data.push({ id, ok: true, application: moved.right })
            continue
          }
          const e = moved.left
          if (!isApiError(e)) return yield* Effect.die(e)
          const status = (e as { status?: unknown }).status
          data.push(
            typeof status === "string" ? { id, ok: false, error: e._tag, status } : { id, ok: false, error: e._tag },
          )
        }
        return { data }
      },
    )

    /** `GET /v1/logos/{file}`: the answer with the bytes, or none. */
    const logo = (file: string, ifNoneMatch: string | undefined) =>
      serveLogo(file, ifNoneMatch).pipe(Effect.provideService(LogosRepo, logos))

    return { provision, show, update, list, move, setLogo, removeLogo, bulk, logo } as const
  }),
}) {}
