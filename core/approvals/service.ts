/**
 * Approvals (DECISIONS 11, 16): the last check of an account-API operation, and the console's decisions.
 *
 * `gate` runs after every other check of the operation passed. If the account's policy names the operation,
 * the same request (operation and input, key order ignored) must have an approval that the key rules match:
 * approved and unexpired runs, once (the approval becomes `used`); pending answers 428 with the same
 * approval; denied answers 403 `approval_denied`; expired, used, or none answers 428 with a new one.
 * A 428 stores nothing and runs nothing; the `Idempotency-Key` stays free (only 2xx answers are kept).
 */
import { Clock, Effect, Option } from "effect"
import { ApprovalsRepo } from "../../ports/store/approvals.ts"
import { AccountsRepo } from "../../ports/store/accounts.ts"
import { CredentialsRepo } from "../../ports/store/credentials.ts"
import { Secrets } from "../../ports/secrets.ts"
import { ApprovalDenied, ApprovalRequired, InvalidRequest, InvalidState, notFound } from "../errors.ts"
import { Approvals as Limits, ConsolePages } from "../limits.ts"
import type { AccountId, Millis } from "../shared/brands.ts"
import { isUuid } from "../shared/brands.ts"
import { echo } from "../shared/text.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { roleLimited } from "../accounts/callers.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { AccountCatalogue } from "../pipeline/catalogue.ts"
import {
  type Approval,
  type ApprovalInput,
  approvalJson,
  canonical,
  keysMatch,
  newApproval,
  statusAt,
} from "./model.ts"

/** One call of an operation that may need an approval. */
export interface GateRequest {
  readonly accountId: AccountId
  readonly memberId: string | null
  readonly who: string
  readonly operation: string
  readonly input: ApprovalInput
  readonly idempotencyKey: string | null
  /** `{base_url}`: the console URL of `human_action` is under it. */
  readonly baseUrl: string
  /** The call to resend once approved (`human_action.then`). */
  readonly then: { readonly operation: string; readonly method: string; readonly path: string }
  /** The sentence `human_action.say` relays, when the operation words its own (its `vet`). */
  readonly say?: string
}

export class Approvals extends Effect.Service<Approvals>()("core/Approvals", {
  effect: Effect.gen(function* () {
    const repo = yield* ApprovalsRepo
    const secrets = yield* Secrets
    const catalogue = yield* AccountCatalogue
    const accounts = yield* AccountsRepo
    const credentials = yield* CredentialsRepo

    const policy = (accountId: AccountId) =>
      Effect.map(repo.policy(accountId), Option.getOrElse((): ReadonlyArray<string> => Limits.defaultPolicy))

    const required = (a: Approval, r: GateRequest) =>
      new ApprovalRequired({
        message: `${r.operation} needs an approval on this account. Ask a person to approve it in the console, ` +
          "then send the same request again.",
        needs: ["approval"],
        approval: { id: a.id, status: "pending", operation: a.operation, expires_at: approvalJson(a, 0).expires_at },
        next: { operation: "approvals.show", method: "GET", path: `/v1/approvals/${a.id}` },
        human_action: {
          reason: "approve_operation",
          url: `${r.baseUrl}/console/approvals/${a.id}`,
          say: r.say ?? `Approve ${r.operation} for ${r.who} in the console.`,
          then: r.then,
        },
      })

    /** The last check: None when the operation needs no approval; Some(id) of the approval this call used. */
    const gate = Effect.fn("Approvals.gate", untracedStacks)(function* (r: GateRequest) {
      if (!(yield* policy(r.accountId)).includes(r.operation)) return Option.none<string>()
      const now = yield* Clock.currentTimeMillis
      const matching = (yield* repo.matching(r.accountId, r.operation, canonical(r.input)))
        .filter((a) => keysMatch(a.idempotencyKey, r.idempotencyKey))
      // An approved one runs, whatever else was asked since; else the newest decides.
      const found = matching.find((a) => statusAt(a, now) === "approved") ?? matching[0]
      if (found !== undefined) {
        const status = statusAt(found, now)
        if (status === "pending") return yield* required(found, r)
        if (status === "denied") {
          return yield* new ApprovalDenied({
            message: `A person denied ${r.operation} for this request.`,
            approval: {
              id: found.id,
              status: "denied",
              operation: found.operation,
              expires_at: approvalJson(found, now).expires_at,
            },
          })
        }
        // Approved: this call takes it, or a concurrent resend did (then this one asks anew).
        if (status === "approved" && (yield* repo.use(found.id, now))) return Option.some(found.id)
      }
      const asked = newApproval({
        id: yield* secrets.uuid,
        accountId: r.accountId,
        operation: r.operation,
        input: r.input,
        idempotencyKey: r.idempotencyKey,
        requestedBy: r.memberId,
        createdAt: now,
      })
      yield* repo.insert(asked)
      return yield* required(asked, r)
    })

    /** The operation an approval was used for failed: the approval may run the next resend. */
    const release = (id: string) => repo.release(id)

    const find = (id: string) =>
      Effect.flatMap(
        isUuid(id) ? repo.get(id) : Effect.succeedNone,
        Option.match({
          onNone: () => Effect.fail(notFound),
          onSome: Effect.succeed,
        }),
      )

    /**
     * `approvals.show`: an approval of the token's account (another account's is `not_found`), without what the
     * token's role may not see (DECISIONS 18: an agent sees no amounts and no buyer's identity in its input).
     */
    const show = (p: AccountPrincipal, id: string) =>
      Effect.gen(function* () {
        const a = yield* find(id)
        if (a.accountId !== p.account.id) return yield* notFound
        return roleLimited(p, approvalJson(a, yield* Clock.currentTimeMillis))
      })

    /** The console's approve and deny: only from `pending` (else 409 `invalid_state` with the status). */
    const decide = Effect.fn("Approvals.decide", untracedStacks)(
      function* (id: string, status: "approved" | "denied", note: string | null) {
        const now = yield* Clock.currentTimeMillis
        const current = yield* find(id)
        const decided = yield* repo.decide(current.id, status, now, note)
        if (Option.isSome(decided)) return approvalJson(decided.value, now)
        const latest = yield* find(id)
        const was = statusAt(latest, now)
        return yield* new InvalidState({
          message: `The approval is ${was}; only a pending one is decided.`,
          status: was,
        })
      },
    )

    /** The console's approval policy: names of account operations (an unknown name is refused). */
    const setPolicy = (accountId: AccountId, operations: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const names = new Set(catalogue.operations.map((op) => op.name))
        const unknown = operations.filter((o) => !names.has(o))
        if (unknown.length > 0) {
          return yield* new InvalidRequest({
            message: `Not account operations: ${echo(unknown.join(", "))}.`,
            fields: { operations: `not account operations: ${echo(unknown.join(", "))}` },
            errors: { operations: "invalid" },
          })
        }
        const list = [...new Set(operations)]
        yield* repo.setPolicy(accountId, list)
        return { operations: list }
      })

    /** The console's list: the approvals of every account waiting for a decision, newest first. */
    const pending = Effect.flatMap(Clock.currentTimeMillis, (now) => repo.pending(now as Millis, ConsolePages.listMax))

    /**
     * The console's page of an approval: the approval, its status now, the operation in words (its summary in the
     * catalogue), the account, and the person who asked (their member id, role and e-mail, from their token).
     */
    const forConsole = (id: string) =>
      Effect.gen(function* () {
        const a = yield* find(id)
        const now = yield* Clock.currentTimeMillis
        const account = yield* accounts.get(a.accountId)
        const held = a.requestedBy === null ? [] : yield* credentials.ofAccount(a.accountId)
        const requester = held.find((c) => c.holder?.memberId === a.requestedBy)?.holder ?? null
        const summary = catalogue.operations.find((op) => op.name === a.operation)?.summary ?? null
        return {
          approval: a,
          status: statusAt(a, now),
          summary,
          account: Option.getOrNull(account),
          requester,
          requestedBy: a.requestedBy,
        }
      })

    return { policy, gate, release, show, decide, setPolicy, pending, forConsole } as const
  }),
}) {}
