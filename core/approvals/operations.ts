/** Approvals: `approvals.show` (account API) and the console's approve, deny and approval policy (DECISIONS 14). */
import { Schema } from "effect"
import { everyRole } from "../accounts/callers.ts"
import { InvalidState, NotFound } from "../errors.ts"
import { accountParameter, consoleCaller, consoleDone } from "../console/operations.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import type { AccountId } from "../shared/brands.ts"
import { Approvals } from "./service.ts"

const ApprovalOutput = Schema.Struct({
  id: Schema.UUID,
  status: Schema.Literal("pending", "approved", "denied", "used", "expired"),
  operation: Schema.String,
  input: Schema.Struct({
    path: Schema.Record({ key: Schema.String, value: Schema.String }),
    query: Schema.Record({ key: Schema.String, value: Schema.String }),
    body: Schema.Unknown,
  }),
  created_at: Schema.String,
  expires_at: Schema.String,
  decided_at: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
}).annotations({ identifier: "Approval" })

const approvalParameter: Parameter = {
  name: "id",
  in: "path",
  description: "The approval id (`approval.id` of a 428 answer)",
  schema: Schema.UUID,
  required: true,
}

export const DecisionBody = Schema.Struct({
  note: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(1000)))),
})

const PolicyBody = Schema.Struct({ operations: Schema.Array(Schema.String) })

/** The console's decisions on a pending approval: `approve` and `deny`. */
const decisionOperation = <const Verb extends "approve" | "deny">(
  verb: Verb,
  status: "approved" | "denied",
  summary: string,
) =>
  operation({
    name: `console.approvals.${verb}`,
    summary,
    method: "POST",
    path: `/console/v1/approvals/{id}/${verb}`,
    caller: consoleCaller,
    answer: consoleDone,
    parameters: [approvalParameter],
    body: DecisionBody,
    output: ApprovalOutput,
    errors: [NotFound, InvalidState],
    idempotent: false,
    service: Approvals,
    run: (a, _, input) => a.decide(input.params.id, status, input.body.note ?? null),
  })

export const approvalOperations = [
  operation({
    name: "approvals.show",
    summary: "An approval of the account: its status (pending, approved, denied, used, expired) and what it is for.",
    returns: "The approval: id, status, operation, input, created_at, expires_at, decided_at (for agents, input " +
      "without amounts and a buyer's name, address and VAT number).",
    method: "GET",
    path: "/v1/approvals/{id}",
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [approvalParameter],
    body: undefined,
    output: ApprovalOutput,
    errors: [NotFound],
    idempotent: false,
    service: Approvals,
    locate: (a, p, params) => a.show(p, params.id ?? ""),
    run: (a, p, input) => a.show(p, input.params.id),
  }),
  decisionOperation("approve", "approved", "Approves a pending approval: the same request sent again runs once."),
  decisionOperation(
    "deny",
    "denied",
    "Denies a pending approval: the request answers 403 approval_denied until the approval expires.",
  ),
  operation({
    name: "console.approval_policy.set",
    summary: "The account operations that need an approval on this account (default: applications.unpause, " +
      "chat.team.add).",
    method: "PUT",
    path: "/console/v1/accounts/{account}/approval-policy",
    caller: consoleCaller,
    answer: consoleDone,
    parameters: [accountParameter],
    body: PolicyBody,
    output: PolicyBody,
    errors: [NotFound],
    idempotent: false,
    service: Approvals,
    run: (a, _, input) => a.setPolicy(input.params.account as AccountId, input.body.operations),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
