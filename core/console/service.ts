/** The console's use cases (DECISIONS 2): what the dashboard does for an operator. */
import { Clock, Effect, Either, Option, Schema } from "effect"
import { AccountsRepo, ApplicationsRepo } from "../../ports/store/accounts.ts"
import { CredentialsRepo } from "../../ports/store/credentials.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Account, Application } from "../accounts/model.ts"
import { notFound } from "../errors.ts"
import { ApplicationLifecycle } from "../accounts/lifecycle.ts"
import { type ReasonCode, reasonCodes } from "../partner/lifecycle.ts"
import { type Credential, type Role, roles, type TokenHolder } from "../keys/model.ts"
import { Fields as FieldLimits } from "../limits.ts"
import type { Json } from "../shared/json.ts"
import type { AccountId, ApplicationId, KeyId } from "../shared/brands.ts"
import { isUuid } from "../shared/brands.ts"
import { isEmailAddress } from "../shared/email-address.ts"
import { FieldReader } from "../shared/fields.ts"
import { formatIpRange, parseIpRange } from "../shared/ip.ts"
import { generateCredential, type KeyMode } from "../shared/key-mode.ts"
import { Access, ScopeName, Scopes } from "../shared/scope.ts"
import { accountJson, applicationJson, newKeyJson } from "./render.ts"
import { untracedStacks } from "../shared/tracing.ts"

const decodeAccess = Schema.decodeUnknownEither(Access)
const decodeScopes = Schema.decodeUnknownEither(Schema.NonEmptyArray(ScopeName))

const failIfRefused = (fields: FieldReader) => (fields.error ? Effect.fail(fields.error) : Effect.void)

export class Console extends Effect.Service<Console>()("core/Console", {
  effect: Effect.gen(function* () {
    const accounts = yield* AccountsRepo
    const apps = yield* ApplicationsRepo
    const credentials = yield* CredentialsRepo
    const secrets = yield* Secrets
    const lifecycle = yield* ApplicationLifecycle
    const scopeTable = yield* Scopes

    const account = (id: string) =>
      Effect.flatMap(
        isUuid(id) ? accounts.get(id as AccountId) : Effect.succeedNone,
        Option.match({
          onNone: () => Effect.fail(notFound),
          onSome: (a) => Effect.succeed(a),
        }),
      )
    const application = (id: string) =>
      Effect.flatMap(
        isUuid(id) ? apps.get(id as ApplicationId) : Effect.succeedNone,
        Option.match({
          onNone: () => Effect.fail(notFound),
          onSome: (a) => Effect.succeed(a),
        }),
      )

    const createAccount = Effect.fn("Console.createAccount", untracedStacks)(function* (body: Json) {
      const f = new FieldReader(body)
      const name = f.name("name", { required: true, max: FieldLimits.maxNameLength })
      const sandboxOnly = f.boolean("sandbox_only", false)
      const partner = f.boolean("partner", false)
      yield* failIfRefused(f)
      const created: Account = {
        id: (yield* secrets.uuid) as AccountId,
        name: name!,
        sandboxOnly,
        partner,
        status: "active",
        createdAt: yield* Clock.currentTimeMillis,
      }
      yield* accounts.insert(created)
      return accountJson(created)
    })

    const createApplication = Effect.fn("Console.createApplication", untracedStacks)(
      function* (accountId: string, body: Json) {
        const owner = yield* account(accountId)
        const f = new FieldReader(body)
        const name = f.name("name", { required: true, max: FieldLimits.maxNameLength })
        const approved = f.boolean("approved", false)
        const externalId = f.string("external_id", { max: FieldLimits.maxNameLength })
        yield* failIfRefused(f)
        const created: Application = {
          id: (yield* secrets.uuid) as ApplicationId,
          accountId: owner.id,
          name: name!,
          status: approved ? "active" : "pending",
          externalId: externalId ?? null,
          paused: false,
          unpausedAt: null,
          approvedAt: approved ? yield* Clock.currentTimeMillis : null,
          createdAt: yield* Clock.currentTimeMillis,
        }
        yield* apps.insert(created)
        return applicationJson(created)
      },
    )

    /** The console's lifecycle moves (DECISIONS 14): approve from pending or rejected, reject, pause. */
    const approve = Effect.fn("Console.approve", untracedStacks)(function* (applicationId: string) {
      const app = yield* application(applicationId)
      return applicationJson((yield* lifecycle.move(app.id, { _tag: "Approve" })).application)
    })

    const reject = Effect.fn("Console.reject", untracedStacks)(function* (applicationId: string, body: Json) {
      const app = yield* application(applicationId)
      const f = new FieldReader(body)
      const reason = f.string("reason_code", { required: true })
      if (reason !== undefined && !(reasonCodes as ReadonlyArray<string>).includes(reason)) {
        f.refuse("reason_code", `must be one of ${reasonCodes.join(", ")}`)
      }
      f.string("note", { max: 1000 })
      yield* failIfRefused(f)
      const moved = yield* lifecycle.move(app.id, { _tag: "Reject", reasonCode: reason as ReasonCode })
      return applicationJson(moved.application)
    })

    const pause = Effect.fn("Console.pause", untracedStacks)(function* (applicationId: string) {
      const app = yield* application(applicationId)
      return applicationJson((yield* lifecycle.move(app.id, { _tag: "Pause" })).application)
    })

    /** Reads `expires_at` (in the future: DECISIONS 18) and `ip_allowlist`, shared by every kind of key. */
    const keyLimits = (f: FieldReader, now: number) => {
      const expires = f.string("expires_at")
      let expiresAt: number | null = null
      if (expires !== undefined) {
        const ms = Date.parse(expires)
        if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}T/.test(expires)) {
          f.refuse("expires_at", "must be an ISO 8601 date-time")
        } else if (ms <= now) {
          // A key would be made expired: `401 key_expired` from its first request.
          f.refuse("expires_at", "must be in the future")
        } else expiresAt = ms
      }
      const list = f.stringArray("ip_allowlist") ?? []
      const ipAllowlist: Array<string> = []
      for (const entry of list) {
        const range = parseIpRange(entry)
        if (Option.isNone(range)) f.refuse("ip_allowlist", `not an IP address or CIDR range: ${entry}`)
        else ipAllowlist.push(formatIpRange(range.value))
      }
      return { expiresAt, ipAllowlist }
    }

    const issue = (
      shape: Omit<Credential, "id" | "hash" | "createdAt" | "revokedAt">,
    ) =>
      Effect.gen(function* () {
        const secret = generateCredential(
          shape.kind === "account_token" ? "account_token" : shape.mode!,
          yield* secrets.randomBytes(24),
        )
        const credential: Credential = {
          ...shape,
          id: (yield* secrets.uuid) as KeyId,
          hash: secrets.hash(secret),
          revokedAt: null,
          createdAt: yield* Clock.currentTimeMillis,
        }
        yield* credentials.insert(credential)
        return { credential, secret }
      })

    /** The end of every key's creation: its expiry and IP allowlist, any refusal so far, then the key, shown once. */
    const issueKey = (
      f: FieldReader,
      shape: Pick<Credential, "accountId" | "applicationId" | "mode" | "access" | "appName" | "holder">,
    ) =>
      Effect.gen(function* () {
        const limits = keyLimits(f, yield* Clock.currentTimeMillis)
        yield* failIfRefused(f)
        const { credential, secret } = yield* issue({ ...shape, kind: "key", ...limits })
        return newKeyJson(credential, secret)
      })

    const readAccess = (f: FieldReader) => {
      const raw = f.body.access ?? "full"
      const access = decodeAccess(raw)
      if (Either.isLeft(access) || (Array.isArray(access.right) && scopeTable.unknown(access.right).length > 0)) {
        return f.refuse("access", 'must be "full", "check" or a non-empty array of scopes')
      }
      const connectedApp = scopeTable.connectedApp
      if (Array.isArray(access.right) && access.right.some((s) => connectedApp.includes(s))) {
        return f.refuse("access", `${connectedApp.join(", ")} are held only by connected-app keys`)
      }
      return access.right
    }

    const createKey = Effect.fn("Console.createKey", untracedStacks)(function* (applicationId: string, body: Json) {
      const app = yield* application(applicationId)
      const f = new FieldReader(body)
      const mode = f.string("mode", { required: true })
      if (mode !== undefined && mode !== "live" && mode !== "test") f.refuse("mode", 'must be "live" or "test"')
      const access = readAccess(f)
      return yield* issueKey(f, {
        accountId: app.accountId,
        applicationId: app.id,
        mode: mode as KeyMode,
        access: access!,
        appName: null,
        holder: null,
      })
    })

    const createPartnerKey = Effect.fn("Console.createPartnerKey", untracedStacks)(
      function* (accountId: string, body: Json) {
        const owner = yield* account(accountId)
        const f = new FieldReader(body)
        const mode = f.string("mode", { required: true })
        if (mode !== undefined && mode !== "partner" && mode !== "partner_test") {
          f.refuse("mode", 'must be "partner" or "partner_test"')
        }
        if (!owner.partner) f.refuse("mode", "partner keys need a partner account")
        if (body.access !== undefined && body.access !== "full") {
          f.refuse("access", "partner keys always have full access")
        }
        return yield* issueKey(f, {
          accountId: owner.id,
          applicationId: null,
          mode: mode as KeyMode,
          access: "full",
          appName: null,
          holder: null,
        })
      },
    )

    const createConnectedAppKey = Effect.fn("Console.createConnectedAppKey", untracedStacks)(
      function* (applicationId: string, body: Json) {
        const app = yield* application(applicationId)
        const f = new FieldReader(body)
        const appName = f.name("app_name", { required: true, max: FieldLimits.maxNameLength })
        const scopes = decodeScopes(body.scopes)
        if (Either.isLeft(scopes) || scopeTable.unknown(scopes.right).length > 0) {
          f.refuse("scopes", "must be a non-empty array of scopes")
        }
        return yield* issueKey(f, {
          accountId: app.accountId,
          applicationId: app.id,
          mode: "live",
          access: Either.getOrUndefined(scopes)!,
          appName: appName!,
          holder: null,
        })
      },
    )

    /**
     * An account token for a person of the account (DECISIONS 14): `role` (default `owner`), `email`, and
     * `manage_contacts` (default true). A second token for the same e-mail is the same person (`member_id`).
     */
    const createAccountToken = Effect.fn("Console.createAccountToken", untracedStacks)(
      function* (accountId: string, body: Json) {
        const owner = yield* account(accountId)
        const f = new FieldReader(body)
        const role = f.string("role") ?? "owner"
        if (!(roles as ReadonlyArray<string>).includes(role)) f.refuse("role", `must be one of ${roles.join(", ")}`)
        const email = f.string("email", { max: FieldLimits.maxEmailLength })
        if (email !== undefined && !isEmailAddress(email)) f.refuse("email", "must be an e-mail address")
        const manageContacts = f.boolean("manage_contacts", true)
        yield* failIfRefused(f)
        const known = email === undefined ? Option.none() : yield* credentials.holderByEmail(owner.id, email)
        const memberId = Option.isSome(known) ? known.value : yield* secrets.uuid
        const holder: TokenHolder = { memberId, role: role as Role, email: email ?? null, manageContacts }
        const { credential, secret } = yield* issue({
          accountId: owner.id,
          applicationId: null,
          kind: "account_token",
          mode: null,
          access: "full",
          appName: null,
          holder,
          expiresAt: null,
          ipAllowlist: [],
        })
        return {
          id: credential.id,
          token: secret,
          member_id: holder.memberId,
          role: holder.role,
          email: holder.email,
          manage_contacts: holder.manageContacts,
        }
      },
    )

    const revokeKey = Effect.fn("Console.revokeKey", untracedStacks)(function* (keyId: string) {
      if (!isUuid(keyId)) return yield* notFound
      const revoked = yield* credentials.revoke(keyId as KeyId, yield* Clock.currentTimeMillis)
      if (Option.isNone(revoked)) return yield* notFound
      return { id: revoked.value.id, revoked: true as const }
    })

    return {
      account,
      application,
      createAccount,
      createApplication,
      approve,
      reject,
      pause,
      createKey,
      createPartnerKey,
      createConnectedAppKey,
      createAccountToken,
      revokeKey,
    } as const
  }),
}) {}
