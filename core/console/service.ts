/** The console's use cases (DECISIONS 2): what the dashboard does for an operator. */
import { Clock, Effect, Option } from "effect"
import { AccountsRepo, ApplicationsRepo } from "../../ports/store/accounts.ts"
import { CredentialsRepo } from "../../ports/store/credentials.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Account, Application } from "../accounts/model.ts"
import { notFound } from "../errors.ts"
import { ConsolePages } from "../limits.ts"
import { ApplicationLifecycle } from "../accounts/lifecycle.ts"
import type { ReasonCode } from "../partner/lifecycle.ts"
import type { Credential, Role, TokenHolder } from "../keys/model.ts"
import { fieldsRefused } from "../pipeline/decode.ts"
import type { AccountId, ApplicationId, KeyId } from "../shared/brands.ts"
import { isUuid } from "../shared/brands.ts"
import { formatIpRange, type IpRange } from "../shared/ip.ts"
import { generateCredential } from "../shared/key-mode.ts"
import { type Access, type Scope, Scopes } from "../shared/scope.ts"
import { accountJson, applicationJson, newKeyJson } from "./render.ts"
import { untracedStacks } from "../shared/tracing.ts"

/** The console's inputs, as their Schemas (core/console/operations.ts) decode them. */
export interface NewAccount {
  readonly name: string
  readonly sandbox_only?: boolean
  readonly partner?: boolean
}
export interface NewApplication {
  readonly name: string
  readonly approved?: boolean
  readonly external_id?: string
}
/** Every key's expiry (UTC milliseconds) and IP allowlist. */
export interface KeyLimits {
  readonly expires_at?: number
  readonly ip_allowlist?: ReadonlyArray<IpRange>
}
export interface NewKey extends KeyLimits {
  readonly mode: "live" | "test"
  readonly access?: Access
}
export interface NewPartnerKey extends KeyLimits {
  readonly mode: "partner" | "partner_test"
}
export interface NewConnectedAppKey extends KeyLimits {
  readonly app_name: string
  readonly scopes: readonly [Scope, ...Array<Scope>]
}
export interface NewAccountToken {
  readonly role?: Role
  readonly email?: string
  readonly manage_contacts?: boolean
}

export class Console extends Effect.Service<Console>()("core/Console", {
  effect: Effect.gen(function* () {
    const accounts = yield* AccountsRepo
    const apps = yield* ApplicationsRepo
    const credentials = yield* CredentialsRepo
    const secrets = yield* Secrets
    const lifecycle = yield* ApplicationLifecycle
    const scopeTable = yield* Scopes

    /** An application key's access, as the scope table judges it: declared scopes, none a connected-app one. */
    const accessRefused = (access: Access): Record<string, string> => {
      if (!Array.isArray(access)) return {}
      if (scopeTable.unknown(access).length > 0) {
        return { access: 'must be "full", "check" or a non-empty array of scopes' }
      }
      const held = scopeTable.connectedApp
      return access.some((s) => held.includes(s))
        ? { access: `${held.join(", ")} are held only by connected-app keys` }
        : {}
    }
    /** A connected-app key's scopes: declared ones. */
    const scopesRefused = (scopes: ReadonlyArray<Scope>): Record<string, string> =>
      scopeTable.unknown(scopes).length > 0 ? { scopes: "must be a non-empty array of scopes" } : {}

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

    const createAccount = Effect.fn("Console.createAccount", untracedStacks)(function* (input: NewAccount) {
      const created: Account = {
        id: (yield* secrets.uuid) as AccountId,
        name: input.name,
        sandboxOnly: input.sandbox_only ?? false,
        partner: input.partner ?? false,
        status: "active",
        createdAt: yield* Clock.currentTimeMillis,
      }
      yield* accounts.insert(created)
      return accountJson(created)
    })

    const createApplication = Effect.fn("Console.createApplication", untracedStacks)(
      function* (accountId: string, input: NewApplication) {
        const owner = yield* account(accountId)
        const approved = input.approved ?? false
        const created: Application = {
          id: (yield* secrets.uuid) as ApplicationId,
          accountId: owner.id,
          name: input.name,
          status: approved ? "active" : "pending",
          externalId: input.external_id ?? null,
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

    const reject = Effect.fn("Console.reject", untracedStacks)(
      function* (applicationId: string, input: { readonly reason_code: ReasonCode }) {
        const app = yield* application(applicationId)
        const moved = yield* lifecycle.move(app.id, { _tag: "Reject", reasonCode: input.reason_code })
        return applicationJson(moved.application)
      },
    )

    const pause = Effect.fn("Console.pause", untracedStacks)(function* (applicationId: string) {
      const app = yield* application(applicationId)
      return applicationJson((yield* lifecycle.move(app.id, { _tag: "Pause" })).application)
    })

    /** `expires_at` (in the future: DECISIONS 18) and `ip_allowlist` as stored, or the refusal of `expires_at`. */
    const keyLimits = (input: KeyLimits, now: number, refused: Record<string, string>) => {
      // A key would be made expired: `401 key_expired` from its first request.
      if (input.expires_at !== undefined && input.expires_at <= now) refused.expires_at = "must be in the future"
      return {
        expiresAt: input.expires_at ?? null,
        ipAllowlist: (input.ip_allowlist ?? []).map(formatIpRange),
      }
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

    /**
     * The end of every key's creation: its expiry and IP allowlist, the refusals so far (`refused`, field →
     * message) with the expiry's, then the key, shown once.
     */
    const issueKey = (
      input: KeyLimits,
      refused: Record<string, string>,
      shape: Pick<Credential, "accountId" | "applicationId" | "mode" | "access" | "appName" | "holder">,
    ) =>
      Effect.gen(function* () {
        const limits = keyLimits(input, yield* Clock.currentTimeMillis, refused)
        const names = Object.keys(refused)
        if (names.length > 0) {
          return yield* fieldsRefused(refused, Object.fromEntries(names.map((n) => [n, "invalid"])))
        }
        const { credential, secret } = yield* issue({ ...shape, kind: "key", ...limits })
        return newKeyJson(credential, secret)
      })

    const createKey = Effect.fn("Console.createKey", untracedStacks)(function* (applicationId: string, input: NewKey) {
      const app = yield* application(applicationId)
      return yield* issueKey(input, accessRefused(input.access ?? "full"), {
        accountId: app.accountId,
        applicationId: app.id,
        mode: input.mode,
        access: input.access ?? "full",
        appName: null,
        holder: null,
      })
    })

    const createPartnerKey = Effect.fn("Console.createPartnerKey", untracedStacks)(
      function* (accountId: string, input: NewPartnerKey) {
        const owner = yield* account(accountId)
        return yield* issueKey(input, owner.partner ? {} : { mode: "partner keys need a partner account" }, {
          accountId: owner.id,
          applicationId: null,
          mode: input.mode,
          access: "full",
          appName: null,
          holder: null,
        })
      },
    )

    const createConnectedAppKey = Effect.fn("Console.createConnectedAppKey", untracedStacks)(
      function* (applicationId: string, input: NewConnectedAppKey) {
        const app = yield* application(applicationId)
        return yield* issueKey(input, scopesRefused(input.scopes), {
          accountId: app.accountId,
          applicationId: app.id,
          mode: "live",
          access: input.scopes,
          appName: input.app_name,
          holder: null,
        })
      },
    )

    /**
     * An account token for a person of the account (DECISIONS 14): `role` (default `owner`), `email`, and
     * `manage_contacts` (default true). A second token for the same e-mail is the same person (`member_id`).
     */
    const createAccountToken = Effect.fn("Console.createAccountToken", untracedStacks)(
      function* (accountId: string, input: NewAccountToken) {
        const owner = yield* account(accountId)
        const email = input.email
        const known = email === undefined ? Option.none() : yield* credentials.holderByEmail(owner.id, email)
        const memberId = Option.isSome(known) ? known.value : yield* secrets.uuid
        const holder: TokenHolder = {
          memberId,
          role: input.role ?? "owner",
          email: email ?? null,
          manageContacts: input.manage_contacts ?? true,
        }
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

    /** The console's lists: the newest accounts, an account's applications, keys and tokens. */
    const recentAccounts = accounts.recent(ConsolePages.listMax)
    const applicationsOf = (accountId: string) =>
      Effect.flatMap(account(accountId), (a) => apps.pageInAccount(a.id, null, ConsolePages.listMax))
    const credentialsOf = (accountId: string) => Effect.flatMap(account(accountId), (a) => credentials.ofAccount(a.id))

    return {
      account,
      application,
      recentAccounts,
      applicationsOf,
      credentialsOf,
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
