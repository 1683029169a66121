/**
 * The chat team's operations (DECISIONS 9.4, 10, 11): the account API's `chat.team.list`, `chat.team.add` (under
 * approval by default: it grants access) and `chat.team.invite` (not repeatable: each call sends an e-mail), and the
 * public link that makes an invited member `active`.
 */
import { Either, Schema } from "effect"
import { everyRole, ownerOrAdmin } from "../accounts/callers.ts"
import { decodeQuery, listParameters, ListQuery, PageOf } from "../accounts/lists.ts"
import { EmailUnavailable } from "../email/errors.ts"
import { decodeInput } from "../pipeline/decode.ts"
import { IdempotencySecretNotReplayable, NotFound } from "../pipeline/errors.ts"
import { concretePath } from "../pipeline/account.ts"
import { type AnyOperation, operation, type Parameter, type RawInput } from "../pipeline/operation.ts"
import type { ApplicationId } from "../shared/brands.ts"
import { SendFailed } from "../verify/errors.ts"
import { AboveOwnRole, AlreadyJoined, InviteWait, NoEmail, SelfEdit } from "./errors.ts"
import { AddBody, AddOutput, addRequest, invitationSecretPattern, InviteOutput, MemberOutput } from "./team.ts"
import { ChatTeam } from "./team-service.ts"

const application: Parameter = {
  name: "application",
  in: "path",
  description: "An application of the token's account",
  schema: Schema.UUID,
  required: true,
}
const member: Parameter = {
  name: "member",
  in: "path",
  description: "A member's id, as `chat.team.list` answers it",
  schema: Schema.UUID,
  required: true,
}

const teamPath = "/v1/applications/{application}/chat/team"
const invitePath = `${teamPath}/{member}/invite`

const decodeAdd = decodeInput(AddBody, [application], true)
const decodeInvite = decodeInput(Schema.Struct({}), [application, member], true)
const decodeList = decodeQuery(ListQuery)

const addInput = (raw: RawInput) =>
  Either.flatMap(decodeAdd(raw), (d) =>
    Either.map(addRequest(d.body), (request) => ({
      application: d.params.application as ApplicationId,
      request,
      baseUrl: raw.baseUrl,
    })))

export const teamOperations = [
  operation({
    name: "chat.team.list",
    summary: "The application's chat team, oldest first: the persons of the account's tokens (each a member of " +
      "every team, with the token's role) and the members added by e-mail or mobile.",
    returns: "A page of team members: id, name, email, mobile, role (owner, admin, agent), status (invited, " +
      "active), invited_at.",
    method: "GET",
    path: teamPath,
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [application, ...listParameters],
    body: undefined,
    decode: (raw) => Either.map(decodeList(raw), (query) => ({ application: raw.params.application, query })),
    output: PageOf(MemberOutput),
    errors: [],
    idempotent: false,
    service: ChatTeam,
    run: (t, p, input) => t.list(p, input.application as ApplicationId, input.query),
  }),
  operation({
    name: "chat.team.add",
    summary: "Adds a person to the chat team by `email` or `mobile` (exactly one) with `role` `admin` or `agent` " +
      "(`201`, status `invited`): by e-mail an invitation goes there (`invitation_sent_to`); by mobile the answer " +
      "holds `invitation_url`, a secret shown only once (a replay under the same `Idempotency-Key` answers `409 " +
      "idempotency_secret_not_replayable` with the member's `id`). Someone already in the team: `200` with the " +
      "member, no approval. Not above the token's role (`above_own_role`), not the token's own person (`self_edit`).",
    returns: "The team member (id, name, email, mobile, role, status, invited_at), with invitation_sent_to when " +
      "added by e-mail or invitation_url (shown once) when added by mobile.",
    method: "POST",
    path: teamPath,
    caller: ownerOrAdmin,
    answer: { status: 201, envelope: "data", also: 200 },
    parameters: [application],
    body: AddBody,
    decode: addInput,
    output: AddOutput,
    errors: [SelfEdit, AboveOwnRole, SendFailed, EmailUnavailable, IdempotencySecretNotReplayable],
    idempotent: true,
    service: ChatTeam,
    vet: (t, p, input) => t.vet(p, input.application, input.request),
    run: (t, p, input) => t.add(p, input.application, input.request, input.baseUrl),
    secretOf: (output) => (output.invitation_url === undefined ? undefined : output.id),
  }),
  operation({
    name: "chat.team.invite",
    summary: "Sends a person added by e-mail a new invitation (its link replaces the last one). Refusals in order: " +
      "`self_edit`, `above_own_role`, `no_email` (added by mobile), `already_joined` (active), `invite_wait` " +
      "(within 5 minutes of the last invitation; `retry_after_seconds`, `Retry-After`, `next` the same call).",
    returns: "The invitation: id (the member's), invitation_sent_to, invited_at.",
    method: "POST",
    path: invitePath,
    caller: ownerOrAdmin,
    answer: { status: 200, envelope: "data" },
    parameters: [application, member],
    body: Schema.Struct({}),
    decode: (raw) =>
      Either.map(decodeInvite(raw), (d) => ({
        application: d.params.application as ApplicationId,
        member: d.params.member ?? "",
        baseUrl: raw.baseUrl,
        path: concretePath(invitePath, raw.params),
      })),
    output: InviteOutput,
    errors: [SelfEdit, AboveOwnRole, NoEmail, AlreadyJoined, InviteWait, SendFailed, EmailUnavailable],
    idempotent: true,
    repeatable: false,
    service: ChatTeam,
    run: (t, p, input) => t.invite(p, input.application, input.member, input.baseUrl, input.path),
  }),
  operation({
    name: "chat.team.join",
    summary: "The invitation link a team member opens (sent by e-mail, or the `invitation_url` of an add by " +
      "mobile): the member becomes `active`. A link replaced by a newer invitation, or unknown: `404 not_found`.",
    method: "GET",
    path: "/v1/chat/team/invitations/{invitation}",
    caller: { _tag: "Public" },
    parameters: [{
      name: "invitation",
      in: "path",
      description: "The link's secret (`inv_` and 32 characters)",
      schema: Schema.String.pipe(Schema.pattern(invitationSecretPattern)),
      required: true,
    }],
    body: undefined,
    output: MemberOutput,
    errors: [NotFound],
    idempotent: false,
    service: ChatTeam,
    run: (t, _, input) => t.accept(input.params.invitation ?? ""),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
