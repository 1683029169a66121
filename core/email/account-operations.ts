/**
 * Email's account-API operations (DECISIONS 8.2, 8.3, 10): access asked and read, sender domains added and
 * listed, the log. The access codes and the switch come before a sender domain's body is read (`locate`).
 */
import { Effect, Either, Schema } from "effect"
import { everyRole, ownerOrAdmin } from "../accounts/callers.ts"
import { decodeQuery, Limit, listParameters, ListQuery, PageOf } from "../accounts/lists.ts"
import { Email as Limits } from "../limits.ts"
import { ErrorCode } from "../pipeline/decode.ts"
import { answeredWith, type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { codePointLength, isStorableText, unstorableMessage } from "../shared/text.ts"
import { EmailAccessPending, EmailAccessRequired, EmailLocked, EmailProductOff } from "./errors.ts"
import { DomainInvalid, DomainLimit, DomainPublic, DomainTaken, DomainTawked } from "./errors.ts"
import { listStatuses } from "./model.ts"
import { Email } from "./service.ts"
import { AccessOutput, EmailOutput, SenderDomainOutput } from "./wire.ts"

const application: Parameter = {
  name: "application",
  in: "path",
  description: "An application of the token's account",
  schema: Schema.UUID,
  required: true,
}

const accessErrors = [EmailAccessRequired, EmailAccessPending, EmailProductOff] as const

const DomainBody = Schema.Struct({
  domain: Schema.String.pipe(
    Schema.filter((s) => s.length <= Limits.domainMax, {
      message: () => `at most ${Limits.domainMax} characters`,
      [ErrorCode]: "too_long",
      jsonSchema: { maxLength: Limits.domainMax },
    }),
  ).annotations({
    description: "The domain to send from, e.g. `shop.sa` (any case; a final dot and Unicode names are accepted)",
  }),
})

const Query = Schema.String.pipe(
  Schema.filter((q) => codePointLength(q) <= Limits.queryMax, {
    message: () => `at most ${Limits.queryMax} characters`,
    [ErrorCode]: "too_long",
    jsonSchema: { maxLength: Limits.queryMax },
  }),
  Schema.filter((q) => isStorableText(q), { message: () => unstorableMessage }),
).annotations({ description: "Part of the recipient, the subject or the reference (any case)" })

const MessagesQuery = Schema.Struct({
  q: Schema.optional(Query),
  status: Schema.optional(Schema.Literal(...listStatuses)),
  domain: Schema.optional(Schema.UUID.annotations({ description: "A sender domain's id" })),
  limit: Schema.optional(Limit()),
  cursor: Schema.optional(Schema.String),
})

const decodeDomainsQuery = decodeQuery(ListQuery)
const decodeMessagesQuery = decodeQuery(MessagesQuery)

const queryParameter = (name: string, description: string): Parameter => ({
  name,
  in: "query",
  description,
  schema: Schema.String,
  required: false,
})

const accessPath = "/v1/account/email/access"
const sendersPath = "/v1/applications/{application}/email/senders"

export const emailAccountOperations = [
  operation({
    name: "email.access.request",
    summary: "Asks for Email on the account: `none` or `denied` becomes `pending` until the platform decides " +
      "(`201`; `200` with the access unchanged when already pending or granted).",
    returns: "The account's Email access: status (none, pending, granted, denied), requested_at, decided_at.",
    method: "POST",
    path: accessPath,
    caller: ownerOrAdmin,
    answer: { status: 201, envelope: "data", also: 200 },
    parameters: [],
    body: Schema.Struct({}),
    output: AccessOutput,
    errors: [],
    idempotent: true,
    service: Email,
    run: (e, p) => Effect.map(e.requestAccess(p), (r) => (r.created ? r.access : answeredWith(200, r.access))),
  }),
  operation({
    name: "email.access.show",
    summary: "The account's Email access: `none`, `pending`, `granted` or `denied`.",
    returns: "The account's Email access: status (none, pending, granted, denied), requested_at, decided_at.",
    method: "GET",
    path: accessPath,
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [],
    body: undefined,
    output: AccessOutput,
    errors: [],
    idempotent: false,
    service: Email,
    run: (e, p) => e.showAccess(p),
  }),
  operation({
    name: "email.senders.create",
    summary: "Adds a sender domain: its three DNS records to publish, checked now and every 10 minutes until " +
      "`verified`, or `failed` after `pending_hours` (`201`; `200` when the application holds it already, and a " +
      "`failed` one added again is checked afresh).",
    returns: "The sender domain: id, domain, status (pending, verified, failed), records (purpose, type, name, " +
      "value, verified), pending_hours, pending_until, verified_at, created_at.",
    method: "POST",
    path: sendersPath,
    caller: ownerOrAdmin,
    answer: { status: 201, envelope: "data", also: 200 },
    parameters: [application],
    body: DomainBody,
    output: SenderDomainOutput,
    errors: [...accessErrors, DomainInvalid, DomainPublic, DomainTawked, DomainTaken, DomainLimit],
    idempotent: true,
    service: Email,
    locate: (e, p, params) => e.applicationGate(p, params.application ?? ""),
    run: (e, _, input) =>
      Effect.map(
        e.addDomain(input.params.application, input.body.domain),
        (r) => (r.created ? r.domain : answeredWith(200, r.domain)),
      ),
  }),
  operation({
    name: "email.senders.list",
    summary: "The application's sender domains, oldest first, with their records and status.",
    returns: "A page of sender domains: id, domain, status, records, pending_hours, pending_until, verified_at, " +
      "created_at.",
    method: "GET",
    path: sendersPath,
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [application, ...listParameters],
    body: undefined,
    decode: (raw) => Either.map(decodeDomainsQuery(raw), (query) => ({ application: raw.params.application, query })),
    output: PageOf(SenderDomainOutput),
    errors: [...accessErrors],
    idempotent: false,
    service: Email,
    locate: (e, p, params) => e.applicationGate(p, params.application ?? ""),
    run: (e, p, input) => e.listDomains(p, input.application, input.query),
  }),
  operation({
    name: "email.messages.list",
    summary: "The application's e-mail, newest first: `q` (recipient, subject or reference), `status` " +
      "(`undelivered`: bounced or failed; `complained`), `domain` (a sender domain's id). `409 email_locked` " +
      "while the account has no access, the application's Email is off, or no domain is verified.",
    returns: "A page of e-mails: id, application_id, from, to, subject, reference, status, complained, test, " +
      "domain_id, domain, created_at, updated_at.",
    method: "GET",
    path: "/v1/applications/{application}/email/messages",
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [
      application,
      queryParameter(
        "q",
        "At most 100 characters, any case. Holding `@`: the recipients starting with it (an address or its start). " +
          "Without three letters or digits in a row: the recipients and references starting with it. Otherwise: " +
          "a part of the recipient, the subject or the reference",
      ),
      queryParameter("status", `One of ${listStatuses.join(", ")} (\`undelivered\`: bounced or failed)`),
      queryParameter("domain", "A sender domain's id"),
      ...listParameters,
    ],
    body: undefined,
    decode: (raw) => Either.map(decodeMessagesQuery(raw), (query) => ({ application: raw.params.application, query })),
    output: PageOf(EmailOutput),
    errors: [EmailLocked],
    idempotent: false,
    service: Email,
    run: (e, p, input) => e.listMessages(p, input.application, input.query),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
