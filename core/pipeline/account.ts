/**
 * The order of checks of an account-API operation (DECISIONS 10), after the token is recognised (429, 401):
 *
 *   403 insufficient_role · 404 not_found (an `{application}` of another account, or none) · the operation's
 *   own checks (its input: 400 first) · 428 approval_required last · the use case · the audit record.
 *
 * Routes and call by name (`POST /v1/operations/{name}`) both run an operation through `accountSteps`. The
 * 404 step reads only the path's ids: the rest of the input (the body parsed, `400 invalid_json`; a call by
 * name's fields that are not the operation's) is read after it, so an unknown or another account's id answers
 * `404 not_found` whatever the body holds.
 */
import { Effect, Either, Option } from "effect"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { AuditRepo } from "../../ports/store/audit.ts"
import { Secrets } from "../../ports/secrets.ts"
import { roleNeeds } from "../accounts/callers.ts"
import { Approvals } from "../approvals/service.ts"
import type { ApprovalInput } from "../approvals/model.ts"
import { type ApiError, InsufficientRole, notFound } from "../errors.ts"
import { type ApplicationId, isUuid } from "../shared/brands.ts"
import type { AccountPrincipal } from "./authenticate.ts"
import type { AnyOperation, RawInput, Vetted } from "./operation.ts"

export type AccountStepsServices = ApplicationsRepo | Approvals | AuditRepo | Secrets

/** One call's input as the steps take it: the path's ids, and the rest, read once the 404 step passed. */
export interface AccountCall {
  readonly params: Readonly<Record<string, string>>
  /** The request's input; fails with step 4's first refusals (`400 invalid_json`, a field that is not the operation's). */
  readonly input: Effect.Effect<RawInput, ApiError>
}

/** Whether the token's person holds one of the roles. */
export const holdsRole = (roles: ReadonlyArray<string>, p: AccountPrincipal): boolean =>
  p.credential.holder !== null && roles.includes(p.credential.holder.role)

/** 403 `insufficient_role`, or undefined when the token's person holds one of the roles. */
export const roleRefusal = (roles: ReadonlyArray<string>, p: AccountPrincipal): InsufficientRole | undefined =>
  holdsRole(roles, p) ? undefined : new InsufficientRole({
    message: `This operation is for ${roles.join(" and ")} tokens; this token's role is ${
      p.credential.holder?.role ?? "none"
    }.`,
    needs: roleNeeds(roles),
  })

/** The path with its parameters filled in: `/v1/applications/{application}/unpause` → `/v1/applications/6f1c…/unpause`. */
export const concretePath = (path: string, params: Readonly<Record<string, string>>): string =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))

/** The request as an approval records it: `{ path, query, body }`, `body` null for operations that read none. */
export const approvalInput = (op: AnyOperation, raw: RawInput): ApprovalInput => ({
  path: { ...raw.params },
  query: Object.fromEntries(raw.query),
  body: op.body === undefined ? null : raw.body ?? {},
})

/**
 * Builds, once, the steps after the role check for one account operation; `run` is the use case with its
 * service in hand, `locate` its own 404 step (the record its path names is the account's), if it has one.
 * Answers the use case's output.
 */
export const makeAccountSteps = Effect.gen(function* () {
  const apps = yield* ApplicationsRepo
  const approvals = yield* Approvals
  const audit = yield* AuditRepo
  const secrets = yield* Secrets
  return <O, E, R>(
    op: AnyOperation,
    run: (p: AccountPrincipal, input: unknown) => Effect.Effect<O, E, R>,
    locate?: (p: AccountPrincipal, params: Readonly<Record<string, string>>) => Effect.Effect<unknown, unknown, R>,
    vet?: (p: AccountPrincipal, input: unknown) => Effect.Effect<Vetted, unknown, R>,
  ) =>
  (p: AccountPrincipal, call: AccountCall): Effect.Effect<O, unknown, R> =>
    Effect.gen(function* () {
      // 404: an application named in the path is one of the token's account; so is the operation's own record.
      const application = call.params.application
      if (application !== undefined) {
        const found = isUuid(application) ? yield* apps.get(application as ApplicationId) : Option.none()
        if (Option.isNone(found) || found.value.accountId !== p.account.id) return yield* notFound
      }
      if (locate !== undefined) yield* locate(p, call.params)
      // The operation's own checks: the body read (400 invalid_json), then its input.
      const raw = yield* call.input
      const input = op.decode(raw)
      if (Either.isLeft(input)) return yield* input.left
      // The operation's checks of its input, then 428 last (none when the call grants nothing).
      const vetted = vet === undefined ? undefined : yield* vet(p, input.right)
      const holder = p.credential.holder
      const used = vetted === false ? Option.none<string>() : yield* approvals.gate({
        accountId: p.account.id,
        memberId: holder?.memberId ?? null,
        who: holder?.email ?? "a member of the account",
        operation: op.name,
        input: approvalInput(op, raw),
        idempotencyKey: raw.idempotencyKey ?? null,
        baseUrl: raw.baseUrl,
        then: { operation: op.name, method: op.method, path: concretePath(op.path, raw.params) },
        ...(vetted === undefined ? {} : { say: vetted.say }),
      })
      const output = yield* run(p, input.right).pipe(
        Effect.tapError(() => Option.match(used, { onNone: () => Effect.void, onSome: approvals.release })),
      )
      if (op.method !== "GET") {
        yield* audit.append({
          id: yield* secrets.uuid,
          accountId: p.account.id,
          at: yield* Effect.clockWith((c) => c.currentTimeMillis),
          actor: { type: "member", id: holder?.memberId ?? null, name: holder?.email ?? null },
          applicationId: application ?? null,
          action: op.name,
          details: Option.match(used, {
            onNone: () => ({ input: approvalInput(op, raw) }),
            onSome: (approval) => ({ input: approvalInput(op, raw), approval }),
          }),
        })
      }
      return output
    })
})
