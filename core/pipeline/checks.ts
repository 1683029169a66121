/**
 * The order of checks of each kind of caller (spec Section 5; DECISIONS 2, 10, 13): one entry per `Caller`
 * `_tag`, saying its steps top to bottom: who is calling (`admit`), then the operation's own steps (`own`).
 *
 *   Key      429, 401, key_expired, ip_not_allowed, insufficient_scope, live_key_required (a `liveOnly` guard),
 *            a partner key's application (service_required, service_not_found), account_not_active;
 *            Idempotency-Key on writes; the operation's `locate` (its own steps before the body); step 4 (the
 *            body, then the input decoded); the use case.
 *   Partner  the same for a partner key on the Partner API: no application named, the account's state only.
 *   Account  429, 401, 403 insufficient_role; Idempotency-Key; the account steps (core/pipeline/account.ts:
 *            404, the body and input, 428, the use case, the audit record).
 *   Console  the operator's token (no rate limit, no idempotency); step 4; the use case.
 *   Public   step 4; the use case.
 *
 * Built once with the route table: every step holds its services from the start (nothing is looked up per
 * request).
 */
import { Effect, Either } from "effect"
import type { IdempotencyRepo } from "../../ports/store/idempotency.ts"
import { Secrets } from "../../ports/secrets.ts"
import { roleNeeds } from "../accounts/callers.ts"
import { type CallByName, splitFlatInput, unknownOperation } from "../accounts/catalogue.ts"
import { InsufficientRole, Unauthorized } from "../errors.ts"
import { type AccountStepsServices, holdsRole, makeAccountSteps, roleRefusal } from "./account.ts"
import {
  type AccountPrincipal,
  type AuthorizeServices,
  type Guard,
  makeAuthorize,
  type Principal,
} from "./authenticate.ts"
import type { Handler, Params } from "./handler.ts"
import { withIdempotency } from "./idempotency.ts"
import { rawInputs, requireJson } from "./input.ts"
import type { AnyOperation, Caller, PrincipalOf, Vetted } from "./operation.ts"
import type { ApiAnswer, ApiRequest } from "./request.ts"

/** What the steps take from the platform's settings (adapters/config.ts `Settings`). */
export interface ChecksSettings {
  /** The operator's token: `Authorization: Bearer <consoleToken>` on every console route. */
  readonly consoleToken: string
  /** `{base_url}` as people reach it; unset: `http://` and the request's Host. */
  readonly publicUrl?: string | undefined
}

/** An operation with its service in hand: its use case answering its rendered answer, and its own 404 step. */
export interface Ready {
  readonly op: AnyOperation
  readonly run: (p: any, input: unknown) => Effect.Effect<ApiAnswer, unknown, any>
  readonly locate: ((p: any, params: Params) => Effect.Effect<unknown, unknown, any>) | undefined
  /** An account operation's checks of its input before the approval, and what the approval asks (its `vet`). */
  readonly vet?: ((p: any, input: unknown) => Effect.Effect<Vetted, unknown, any>) | undefined
}

/** The steps after the caller's, with who is calling (`undefined` for the console and the public). */
export type Then<P, R> = (p: P, req: ApiRequest, params: Params) => Effect.Effect<ApiAnswer, unknown, R>

/** One kind of caller's steps. */
export interface CallerSteps<C extends Caller> {
  /** Console and account-API routes answer every error with a `message` (DECISIONS 2, 10). */
  readonly withMessage: boolean
  /** Who is calling, then `then`. */
  readonly admit: <R>(caller: C, then: Then<PrincipalOf<C>, R>) => Handler<R | Secrets | IdempotencyRepo>
  /** The operation's own steps, once the caller is admitted. */
  readonly own: (ready: Ready) => Then<PrincipalOf<C>, any>
}

export type Callers = { readonly [T in Caller["_tag"]]: CallerSteps<Extract<Caller, { readonly _tag: T }>> }

export interface Checks {
  readonly callers: Callers
  /** `POST /v1/operations/{name}`'s own steps over the account operations (DECISIONS 10). */
  readonly callByName: (operations: ReadonlyArray<Ready>) => Then<AccountPrincipal, any>
}

/** The steps of a caller, looked up once per route by its `_tag`. */
export const stepsOf = <C extends Caller>(callers: Callers, caller: C): CallerSteps<C> =>
  callers[caller._tag] as CallerSteps<any>

const unauthorized = new Unauthorized({})
const consoleRefused = new Unauthorized({ message: "A valid console token is required." })
const accountGuard: Guard = { audience: "account_token" }
const partnerGuard: Guard = { audience: "partner" }

export const makeChecks = (
  settings: ChecksSettings,
): Effect.Effect<Checks, never, AuthorizeServices | AccountStepsServices> =>
  Effect.map(Effect.all([makeAuthorize, makeAccountSteps, Secrets]), ([authorize, accountSteps, secrets]) => {
    const { of, withRaw } = rawInputs(settings.publicUrl)

    /** Steps 1 to 3 for a principal of `tag`, its refusal if any (403), Idempotency-Key on writes, then `then`. */
    const admitted = <P extends Principal, R>(
      tag: P["_tag"],
      guard: Guard,
      then: Then<P, R>,
      refuse?: (p: P) => InsufficientRole | undefined,
    ): Handler<R | Secrets | IdempotencyRepo> =>
    (req, params) =>
      authorize(req, guard, (p) => {
        if (p._tag !== tag) return Effect.fail(unauthorized)
        req.credentialId = p.credential.id
        const refused = refuse?.(p as P)
        return refused !== undefined
          ? Effect.fail(refused)
          : withIdempotency(req, p.credential.id, then(p as P, req, params))
      })

    /**
     * The operation's own steps before its input (`locate`: a channel's state, DECISIONS 7.2), step 4, then the
     * use case: no extra Effect step when there is no `locate` and the input decodes (the usual case).
     */
    const decodeThenRun = ({ op, run, locate }: Ready): Then<Principal | undefined, any> => {
      const decodeAndRun: Then<Principal | undefined, any> = (p, req, params) =>
        withRaw(op, req, params, (raw) => {
          const input = op.decode(raw)
          return Either.isLeft(input) ? Effect.fail(input.left) : run(p, input.right)
        })
      return locate === undefined
        ? decodeAndRun
        : (p, req, params) => Effect.zipRight(locate(p, params), decodeAndRun(p, req, params))
    }

    /** The account steps; the body is read after their 404 step (DECISIONS 10). */
    const accountOwn = ({ op, run, locate, vet }: Ready): Then<AccountPrincipal, any> => {
      const steps = accountSteps(op, run, locate, vet)
      return (p, req, params) => steps(p, { params, input: withRaw(op, req, params, Effect.succeed) })
    }

    const consoleHash = secrets.hash(settings.consoleToken)
    const isConsoleToken = (req: ApiRequest) => {
      const auth = req.header("authorization")
      const presented = auth?.startsWith("Bearer ") ? auth.slice(7).trim() : ""
      return secrets.equal(secrets.hash(presented), consoleHash)
    }

    const callers: Callers = {
      Key: { withMessage: false, admit: (caller, then) => admitted("Key", caller.guard, then), own: decodeThenRun },
      Partner: { withMessage: false, admit: (_, then) => admitted("Partner", partnerGuard, then), own: decodeThenRun },
      Account: {
        withMessage: true,
        admit: (caller, then) => {
          const refused = new InsufficientRole({
            message: `This operation is for ${caller.roles.join(" and ")} tokens.`,
            needs: roleNeeds(caller.roles),
          })
          // DECISIONS 10: 403 insufficient_role right after the token is recognised.
          return admitted("Account", accountGuard, then, (p) => holdsRole(caller.roles, p) ? undefined : refused)
        },
        own: accountOwn,
      },
      Console: {
        withMessage: true,
        admit: (_, then) => (req, params) =>
          isConsoleToken(req) ? then(undefined, req, params) : Effect.fail(consoleRefused),
        own: decodeThenRun,
      },
      Public: {
        withMessage: false,
        admit: (_, then) => (req, params) => then(undefined, req, params),
        own: decodeThenRun,
      },
    }

    const callByName = (operations: ReadonlyArray<Ready>): Then<AccountPrincipal, any> => {
      const byName = new Map(
        operations.map((r) => [r.op.name, { r, steps: accountSteps(r.op, r.run, r.locate, r.vet) }]),
      )
      // 404 unknown_operation and 403 before the body is read; then its path's ids, the route's 404 step, and
      // only then the fields the operation does not take (DECISIONS 10).
      const call: CallByName = (p, name, req) => {
        const found = byName.get(name)
        if (found === undefined) return Effect.fail(unknownOperation(name, [...byName.keys()]))
        const refused = roleRefusal((found.r.op.caller as { roles: ReadonlyArray<string> }).roles, p)
        if (refused !== undefined) return Effect.fail(refused)
        return Effect.flatMap(
          Effect.flatMap(requireJson(req), (flat) => splitFlatInput(found.r.op, flat)),
          ({ params, query, body, refused }) =>
            found.steps(p, {
              params,
              input: refused !== undefined ? Effect.fail(refused) : Effect.succeed(of(body, params, req, query)),
            }),
        )
      }
      return (p, req, params) => call(p, params.name, req)
    }

    return { callers, callByName }
  })
