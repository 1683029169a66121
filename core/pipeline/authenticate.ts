/**
 * Steps 1 to 3 of the order of checks (spec Section 5), top to bottom:
 * rate limit; key recognised, expiry, IP allowlist, scope; partner `application` resolution;
 * account and application state.
 */
import { Clock, Effect, Option } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { type CredentialContext, CredentialsRepo } from "../../ports/store/credentials.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Account, Application } from "../accounts/model.ts"
import {
  AccountNotActive,
  InsufficientScope,
  IpNotAllowed,
  KeyExpired,
  ServiceNotFound,
  ServiceRequired,
  Unauthorized,
} from "../errors.ts"
import type { Credential } from "../keys/model.ts"
import { allowlistAdmits, parseIp, parseIpRange } from "../shared/ip.ts"
import { isPartnerMode, isSandboxMode, type KeyMode } from "../shared/key-mode.ts"
import { grants, type Scope } from "../shared/scope.ts"
import { enforceRateLimit } from "./rate-limit.ts"
import { type ApiRequest, jsonObject, presentedCredential } from "./request.ts"

/** Who may call an operation. */
export type Audience =
  /** Application keys, and partner keys naming a client application (Verify). */
  | "application_or_partner"
  /** Application keys only. */
  | "application"
  /** Account tokens (the account API). */
  | "account_token"

export interface Guard {
  readonly audience: Audience
  readonly scope?: Scope
  /** The auto-attendant judges scope right after the key is recognised. */
  readonly scopeFirst?: boolean
}

/** A key-authenticated caller, with the application the call acts for. */
export interface KeyPrincipal {
  readonly _tag: "Key"
  readonly credential: Credential
  readonly account: Account
  readonly application: Application
  readonly mode: KeyMode
}

export interface AccountPrincipal {
  readonly _tag: "Account"
  readonly credential: Credential
  readonly account: Account
}

export type Principal = KeyPrincipal | AccountPrincipal

const unauthorized = new Unauthorized({})

/** Step 2a: the key is recognised and fits the operation's audience. */
const recognise = (found: Option.Option<CredentialContext>, audience: Audience) => {
  if (Option.isNone(found)) return Effect.fail(unauthorized)
  const ctx = found.value
  const { account, credential } = ctx
  if (credential.revokedAt !== null) return Effect.fail(unauthorized)
  if ((credential.kind === "account_token") !== (audience === "account_token")) return Effect.fail(unauthorized)
  const mode = credential.mode
  if (mode !== null) {
    if (audience === "application" && isPartnerMode(mode)) return Effect.fail(unauthorized)
    if (account.sandboxOnly && !isSandboxMode(mode)) return Effect.fail(unauthorized)
    // An unknown or suspended partner.
    if (isPartnerMode(mode) && (!account.partner || account.status !== "active")) return Effect.fail(unauthorized)
  }
  return Effect.succeed(ctx)
}

const checkExpiry = (credential: Credential, now: number) =>
  credential.expiresAt !== null && now >= credential.expiresAt ? Effect.fail(new KeyExpired({})) : Effect.void

const checkIp = (credential: Credential, ip: string | undefined) => {
  if (credential.ipAllowlist.length === 0) return Effect.void
  const ranges = credential.ipAllowlist.flatMap((s) => Option.toArray(parseIpRange(s)))
  const caller = ip === undefined ? undefined : Option.getOrUndefined(parseIp(ip))
  return allowlistAdmits(ranges, caller) ? Effect.void : Effect.fail(new IpNotAllowed({}))
}

const checkScope = (credential: Credential, scope: Scope | undefined) =>
  scope === undefined || grants(credential.access, scope) ? Effect.void : Effect.fail(new InsufficientScope({ scope }))

/** The client application a partner names: `?application=` on reads, `application` (or `service`) in the body. */
export const partnerApplicationRef = (req: ApiRequest): string | undefined => {
  const fromQuery = req.query.get("application") ?? req.query.get("service")
  if (fromQuery) return fromQuery
  if (req.method === "GET") return undefined
  const body = jsonObject(req.body)
  const ref = body?.application ?? body?.service
  return typeof ref === "string" && ref !== "" ? ref : undefined
}

/** Step 2b: a partner key names one of its client applications. */
const resolvePartnerApplication = (ctx: CredentialContext, req: ApiRequest) =>
  Effect.gen(function* () {
    const ref = partnerApplicationRef(req)
    if (ref === undefined) return yield* new ServiceRequired({})
    const found = yield* (yield* ApplicationsRepo).findInAccount(ctx.account.id, ref)
    if (Option.isNone(found)) return yield* new ServiceNotFound({})
    return found.value
  })

const usableStatuses = (mode: KeyMode): ReadonlyArray<Application["status"]> =>
  isSandboxMode(mode) ? ["pending", "active"] : ["active"]

/** Step 3: the account is active and the application may be used with this key mode. */
const checkState = (account: Account, application: Application | null, mode: KeyMode | null) => {
  if (account.status !== "active") return Effect.fail(new AccountNotActive({}))
  if (application !== null && mode !== null && !usableStatuses(mode).includes(application.status)) {
    return Effect.fail(new AccountNotActive({}))
  }
  return Effect.void
}

/**
 * The keyed hash of a presented credential, remembered per Secrets instance: the HMAC is a large share
 * of a cheap request (most on Deno, whose node:crypto Hmac builds a stream on every call). Bounded:
 * only credential-sized strings, at most 10,000 of them, all forgotten at once when full.
 */
const rememberedHashes = new WeakMap<object, Map<string, string>>()
const hashCredential = (secrets: Secrets["Type"], presented: string): string => {
  if (presented.length > 128) return secrets.hash(presented)
  let memo = rememberedHashes.get(secrets)
  if (memo === undefined) rememberedHashes.set(secrets, memo = new Map())
  let hash = memo.get(presented)
  if (hash === undefined) {
    hash = secrets.hash(presented)
    if (memo.size >= 10_000) memo.clear()
    memo.set(presented, hash)
  }
  return hash
}

/**
 * Runs steps 1 to 3 for a request; answers who is calling, for which application.
 * Untraced (no span): it runs on every request, and an `Effect.fn` span costs a captured stack per call
 * and two formatted stacks per failure, several times the rest of the check (bench/http.ts).
 */
export const authorize = Effect.fnUntraced(function* (req: ApiRequest, guard: Guard) {
  const presented = presentedCredential(req)
  if (presented === undefined) return yield* unauthorized
  const secrets = yield* Secrets
  const hash = hashCredential(secrets, presented)
  yield* enforceRateLimit(hash)

  const ctx = yield* recognise(yield* (yield* CredentialsRepo).findByHash(hash), guard.audience)
  const { account, credential } = ctx
  const now = yield* Clock.currentTimeMillis
  if (guard.scopeFirst) yield* checkScope(credential, guard.scope)
  yield* checkExpiry(credential, now)
  yield* checkIp(credential, req.ip)
  if (!guard.scopeFirst) yield* checkScope(credential, guard.scope)

  if (credential.kind === "account_token" || credential.mode === null) {
    yield* checkState(account, null, null)
    return { _tag: "Account", credential, account } satisfies AccountPrincipal as Principal
  }
  const mode = credential.mode
  const application = isPartnerMode(mode) ? yield* resolvePartnerApplication(ctx, req) : ctx.application
  if (application === null) return yield* unauthorized
  yield* checkState(account, application, mode)
  return { _tag: "Key", credential, account, application, mode } satisfies KeyPrincipal as Principal
})
