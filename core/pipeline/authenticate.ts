/**
 * Steps 1 to 3 of the order of checks (spec Section 5), top to bottom:
 * rate limit; key recognised, expiry, IP allowlist, scope; partner `application` resolution;
 * account and application state.
 */
import { Effect, Option } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { type CredentialContext, CredentialsRepo } from "../../ports/store/credentials.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Account, Application } from "../accounts/model.ts"
import {
  AccountNotActive,
  InsufficientScope,
  IpNotAllowed,
  KeyExpired,
  LiveKeyRequired,
  ServiceNotFound,
  ServiceRequired,
  type TooManyRequests,
  Unauthorized,
} from "../errors.ts"
import type { Credential } from "../keys/model.ts"
import { allowlistAdmits, parseIp, parseIpRange } from "../shared/ip.ts"
import { type Memo, twoGenerationMemo } from "../shared/memo.ts"
import { isPartnerMode, isSandboxMode, type KeyMode } from "../shared/key-mode.ts"
import { isStorableText } from "../shared/text.ts"
import { type Scope, Scopes, type ScopeTable } from "../shared/scope.ts"
import { RateLimit } from "../limits.ts"
import { tooManyRequests, windowStart } from "./rate-limit.ts"
import { type ApiRequest, presentedCredential } from "./request.ts"

/** Who may call an operation. */
export type Audience =
  /** Application keys, and partner keys naming a client application (Verify). */
  | "application_or_partner"
  /** Application keys only. */
  | "application"
  /** Account tokens (the account API). */
  | "account_token"
  /** Partner keys (both modes) on the Partner API: the account's own operations, no client application named. */
  | "partner"

export interface Guard {
  readonly audience: Audience
  readonly scope?: Scope
  /** The auto-attendant judges scope right after the key is recognised. */
  readonly scopeFirst?: boolean
  /**
   * A channel without a sandbox: a test key (holding the scope) answers `403 live_key_required` after the key's
   * own checks and before the account's state (DECISIONS 7.2).
   */
  readonly liveOnly?: boolean
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

/** A partner key on the Partner API: the partner account, in live (`partner`) or sandbox (`partner_test`) mode. */
export interface PartnerPrincipal {
  readonly _tag: "Partner"
  readonly credential: Credential
  readonly account: Account
  readonly mode: KeyMode
}

export type Principal = KeyPrincipal | AccountPrincipal | PartnerPrincipal

const unauthorized = new Unauthorized({})

/**
 * The checks themselves are plain functions over what the store answered: each returns the refusal, or
 * `undefined` to let the request on. `authorize` below runs them in the order of spec Section 5.
 */
type Refusal = Unauthorized | KeyExpired | IpNotAllowed | InsufficientScope | LiveKeyRequired | AccountNotActive

const liveKeyRequired = new LiveKeyRequired({})

/** Step 2a: the key is recognised and fits the operation's audience. */
const recognise = (found: Option.Option<CredentialContext>, audience: Audience): Refusal | undefined => {
  if (Option.isNone(found)) return unauthorized
  const { account, credential } = found.value
  if (credential.revokedAt !== null) return unauthorized
  if ((credential.kind === "account_token") !== (audience === "account_token")) return unauthorized
  const mode = credential.mode
  if (audience === "partner" && (mode === null || !isPartnerMode(mode))) return unauthorized
  if (mode !== null) {
    if (audience === "application" && isPartnerMode(mode)) return unauthorized
    if (account.sandboxOnly && !isSandboxMode(mode)) return unauthorized
    // An unknown or suspended partner.
    if (isPartnerMode(mode) && (!account.partner || account.status !== "active")) return unauthorized
  }
  return undefined
}

const checkExpiry = (credential: Credential, now: number): Refusal | undefined =>
  credential.expiresAt !== null && now >= credential.expiresAt ? new KeyExpired({}) : undefined

/** `req.ip` is read only for a key with an allowlist (some hosts look the address up on demand). */
const checkIp = (credential: Credential, req: ApiRequest): Refusal | undefined => {
  if (credential.ipAllowlist.length === 0) return undefined
  const ip = req.ip
  const ranges = credential.ipAllowlist.flatMap((s) => Option.toArray(parseIpRange(s)))
  const caller = ip === undefined ? undefined : Option.getOrUndefined(parseIp(ip))
  return allowlistAdmits(ranges, caller) ? undefined : new IpNotAllowed({})
}

const checkScope = (scopes: ScopeTable, credential: Credential, scope: Scope | undefined): Refusal | undefined =>
  scope === undefined || scopes.grants(credential.access, scope) ? undefined : new InsufficientScope({ scope })

/** Step 2 for the key itself: recognised, then expiry, IP allowlist and scope (scope first for the auto-attendant). */
const judgeKey = (
  scopes: ScopeTable,
  found: Option.Option<CredentialContext>,
  guard: Guard,
  now: number,
  req: ApiRequest,
): Refusal | undefined => {
  const unrecognised = recognise(found, guard.audience)
  if (unrecognised !== undefined || Option.isNone(found)) return unrecognised ?? unauthorized
  const { credential } = found.value
  return (guard.scopeFirst ? checkScope(scopes, credential, guard.scope) : undefined) ??
    checkExpiry(credential, now) ??
    checkIp(credential, req) ??
    (guard.scopeFirst ? undefined : checkScope(scopes, credential, guard.scope)) ??
    (guard.liveOnly === true && credential.mode !== null && isSandboxMode(credential.mode)
      ? liveKeyRequired
      : undefined)
}

/** The client application a partner names: `?application=` on reads, `application` (or `service`) in the body. */
export const partnerApplicationRef = (req: ApiRequest): string | undefined => {
  const fromQuery = req.query.get("application") ?? req.query.get("service")
  if (fromQuery) return fromQuery
  if (req.method === "GET") return undefined
  // The request's one parse of its body: step 4 reads it again without parsing.
  const body = req.json()
  const ref = body?.application ?? body?.service
  return typeof ref === "string" && ref !== "" ? ref : undefined
}

/**
 * Whether a key of this mode may use the application: test keys before approval too; live and partner keys
 * once it is `active`, or `pending` under re-review after an earlier approval (DECISIONS 13).
 */
const usable = (mode: KeyMode, application: Application): boolean =>
  application.status === "active" ||
  (application.status === "pending" && (isSandboxMode(mode) || application.approvedAt !== null))

/** Step 3: the account is active and the application may be used with this key mode. */
const checkState = (account: Account, application: Application | null, mode: KeyMode | null): Refusal | undefined => {
  if (account.status !== "active") return new AccountNotActive({})
  if (application !== null && mode !== null && !usable(mode, application)) {
    return new AccountNotActive({})
  }
  return undefined
}

/** Step 3 once the application is known: the principal, or the refusal. */
const admit = (credential: Credential, account: Account, application: Application | null): Principal | Refusal => {
  if (credential.kind === "account_token" || credential.mode === null) {
    return checkState(account, null, null) ?? { _tag: "Account", credential, account }
  }
  if (application === null) return unauthorized
  const mode = credential.mode
  return checkState(account, application, mode) ?? { _tag: "Key", credential, account, application, mode }
}

const isPrincipal = (admitted: Principal | Refusal): admitted is Principal =>
  admitted._tag === "Key" || admitted._tag === "Account" || admitted._tag === "Partner"

/**
 * The keyed hash of a presented credential, remembered per Secrets instance: the HMAC is a large share
 * of a cheap request (most on Deno, whose node:crypto Hmac builds a stream on every call). Bounded:
 * only credential-sized strings, in two generations of at most 10,000 (`twoGenerationMemo`).
 */
const rememberedHashes = new WeakMap<object, Memo>()
const hashCredential = (secrets: Secrets["Type"], presented: string): string => {
  if (presented.length > 128) return secrets.hash(presented)
  let memo = rememberedHashes.get(secrets)
  if (memo === undefined) {
    rememberedHashes.set(
      secrets,
      memo = twoGenerationMemo(10_000, (value) => secrets.hash(value)),
    )
  }
  return memo.get(presented)
}

export type AuthorizeServices = Secrets | CredentialsRepo | ApplicationsRepo | Scopes

/** Every refusal of steps 1 to 3. */
export type AuthorizeError = TooManyRequests | Refusal | ServiceRequired | ServiceNotFound

/** Steps 1 to 3, then `then` with the principal (one chain: no extra step between the checks and the handler). */
export type Authorize = <A, E, R>(
  req: ApiRequest,
  guard: Guard,
  then: (principal: Principal) => Effect.Effect<A, E, R>,
) => Effect.Effect<A, E | AuthorizeError, R>

/**
 * Builds, once, the function that runs steps 1 to 3 for a request and answers who is calling, for which
 * application:
 *
 *   1. rate limit (per presented credential, before anything is looked up),
 *   2. key recognised, expiry, IP allowlist, scope,
 *   2b. a partner key's `application`: `service_required`, `service_not_found`,
 *   3. account and application state.
 *
 * It runs on every keyed request, so it holds its services and the clock from the start, takes the
 * store's one answer (the rate window's count and the credential) with plain combinators, and judges
 * the rest with the plain functions above: no generator and no span (an `Effect.fn` span costs more
 * than the whole check; bench/dispatch.ts).
 */
export const makeAuthorize: Effect.Effect<Authorize, never, AuthorizeServices> = Effect.map(
  Effect.all([Secrets, CredentialsRepo, ApplicationsRepo, Scopes, Effect.clock]),
  ([secrets, credentials, applications, scopes, clock]): Authorize =>
  <A, E, R>(
    req: ApiRequest,
    guard: Guard,
    then: (principal: Principal) => Effect.Effect<A, E, R>,
  ): Effect.Effect<A, E | AuthorizeError, R> => {
    type Next = Effect.Effect<A, E | AuthorizeError, R>
    const presented = presentedCredential(req)
    if (presented === undefined) return Effect.fail(unauthorized)
    const proceed = (admitted: Principal | Refusal): Next =>
      isPrincipal(admitted) ? then(admitted) : Effect.fail(admitted)
    const hash = hashCredential(secrets, presented)
    const now = clock.unsafeCurrentTimeMillis()
    return Effect.flatMap(credentials.present(hash, windowStart(now)), ({ count, found }): Next => {
      // 1. The rate limit, counted before the key is even known.
      if (count > RateLimit.requests) return Effect.fail(tooManyRequests(now))
      // 2. The key: recognised, expiry, IP allowlist, scope.
      const refused = judgeKey(scopes, found, guard, now, req)
      if (refused !== undefined || Option.isNone(found)) return Effect.fail(refused ?? unauthorized)
      const { account, credential, application } = found.value
      // 3. The partner's own operations: the account's state only.
      if (guard.audience === "partner") {
        return proceed(
          checkState(account, null, null) ?? { _tag: "Partner", credential, account, mode: credential.mode! },
        )
      }
      // 3. Account and application state.
      if (credential.kind === "account_token" || credential.mode === null || !isPartnerMode(credential.mode)) {
        return proceed(admit(credential, account, application))
      }
      // 2b. A partner key names its client application, then 3.
      const ref = partnerApplicationRef(req)
      if (ref === undefined) return Effect.fail(new ServiceRequired({}))
      // No application can be named with a NUL or an unpaired surrogate (no store could hold the name).
      if (!isStorableText(ref)) return Effect.fail(new ServiceNotFound({}))
      return Effect.flatMap(
        applications.findInAccount(account.id, ref),
        (named): Next =>
          Option.isNone(named)
            ? Effect.fail(new ServiceNotFound({}))
            : proceed(admit(credential, account, named.value)),
      )
    })
  },
)

/** Steps 1 to 3 for one request, answering the principal (the route table builds `makeAuthorize` once instead, core/pipeline/checks.ts). */
export const authorize = (req: ApiRequest, guard: Guard): Effect.Effect<Principal, AuthorizeError, AuthorizeServices> =>
  Effect.flatMap(makeAuthorize, (run) => run(req, guard, Effect.succeed))
