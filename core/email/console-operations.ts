/**
 * Email's console operations (DECISIONS 8.3): the account's access decided, the application's Email switched, a
 * test mail; and the simulators', served only while their provider is `simulator`: the DNS records
 * (`DNS_PROVIDER`), the provider's reports and inbox (`EMAIL_PROVIDER`).
 */
import { Effect, Either, Schema } from "effect"
import {
  accountParameter,
  applicationParameter,
  consoleCaller as console,
  consoleCreated as created,
  consoleDone as done,
} from "../console/operations.ts"
import { NotFound, SendFailed } from "../errors.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { consoleBody } from "../shared/fields.ts"
import { isStorableText, unstorableMessage } from "../shared/text.ts"
import { InvalidDestination } from "../verify/errors.ts"
import { EmailUnavailable, SenderNotVerified } from "./errors.ts"
import { EmailReturnsIntake } from "./returns.ts"
import { Email } from "./service.ts"
import { EmailSimulator } from "./simulator.ts"
import { AccessOutput, EmailOutput } from "./wire.ts"
import { Email as Limits } from "../limits.ts"

/** Text every store can hold (no NUL, no unpaired surrogate): `invalid` otherwise. */
const StorableText = Schema.String.pipe(Schema.filter((t) => isStorableText(t), { message: () => unstorableMessage }))

export const emailConsoleOperations = [
  operation({
    name: "console.email.access.put",
    summary: "Decides an account's request for Email: `granted` or `denied`.",
    method: "PUT",
    path: "/console/v1/accounts/{account}/email-access",
    caller: console,
    answer: done,
    parameters: [accountParameter],
    body: consoleBody({ status: Schema.Literal("granted", "denied") }),
    output: AccessOutput,
    errors: [NotFound],
    idempotent: false,
    service: Email,
    run: (e, _, input) => e.decideAccess(input.params.account, input.body.status),
  }),
  operation({
    name: "console.email.put",
    summary: "Turns an application's Email on or off (on by default).",
    method: "PUT",
    path: "/console/v1/applications/{application}/email",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: consoleBody({ enabled: Schema.Boolean }),
    output: Schema.Struct({ enabled: Schema.Boolean }),
    errors: [NotFound],
    idempotent: false,
    service: Email,
    run: (e, _, input) => e.setEnabled(input.params.application, input.body.enabled),
  }),
  operation({
    name: "console.email.test",
    summary: "Sends a test e-mail (`test: true`) from `test@` the application's first verified domain, or `from`.",
    method: "POST",
    path: "/console/v1/applications/{application}/email/test",
    caller: console,
    answer: created,
    parameters: [applicationParameter],
    body: consoleBody({ to: Schema.String, from: Schema.optional(Schema.String) }),
    output: EmailOutput,
    errors: [NotFound, InvalidDestination, SenderNotVerified, SendFailed, EmailUnavailable],
    idempotent: false,
    service: Email,
    run: (e, _, input) => e.sendTest(input.params.application, input.body.to, input.body.from),
  }),
  operation({
    name: "console.email.returns",
    summary: "Mail that came back to an envelope sender (`b+<id>@bounces.mail.svc.sa`), as its mail server " +
      "received it (`message/rfc822`): a DSN moves the e-mail to delivered, bounced or failed, an ARF complaint " +
      "marks it complained; anything else changes nothing (`report: null`).",
    method: "POST",
    path: "/console/v1/email/returns",
    caller: console,
    answer: done,
    parameters: [{
      name: "rcpt_to",
      in: "query",
      description: "The envelope recipient it arrived for, when the mail server gives it",
      schema: Schema.String,
      required: false,
    }],
    body: undefined,
    decode: (raw) => Either.right({ text: raw.text ?? "", rcptTo: raw.query.get("rcpt_to") ?? undefined }),
    output: Schema.Struct({
      report: Schema.NullOr(Schema.Struct({
        id: Schema.String,
        kind: Schema.Literal("delivered", "bounced", "failed", "complained"),
      })),
      email: Schema.NullOr(EmailOutput),
    }),
    errors: [],
    idempotent: false,
    service: EmailReturnsIntake,
    run: (r, _, input) => r.take(input.text, input.rcptTo),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

/** The DNS simulator's route, while `DNS_PROVIDER` is `simulator`. */
export const dnsSimulatorOperations = [
  operation({
    name: "console.simulator.dns.records.put",
    summary: "Replaces the simulated DNS's records of one type at one name (`values: []` removes them).",
    method: "PUT",
    path: "/console/v1/simulator/dns/records",
    caller: console,
    answer: done,
    parameters: [],
    body: consoleBody({
      type: Schema.Literal("TXT", "CNAME"),
      name: StorableText.pipe(Schema.minLength(1), Schema.maxLength(Limits.domainMax)),
      values: Schema.Array(StorableText),
    }),
    output: Schema.Struct({
      type: Schema.Literal("TXT", "CNAME"),
      name: Schema.String,
      values: Schema.Array(Schema.String),
    }),
    errors: [],
    idempotent: false,
    service: EmailSimulator,
    run: (s, _, input) => s.putRecords(input.body.type, input.body.name, input.body.values),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

/** The e-mail provider simulator's routes, while `EMAIL_PROVIDER` is `simulator`. */
export const emailSimulatorOperations = [
  operation({
    name: "console.simulator.email.report",
    summary: "The simulated provider's report on an e-mail (`delivered`, `bounced`, `failed`: final; " +
      "`complained`: marks it); answers the e-mail.",
    method: "POST",
    path: "/console/v1/simulator/email/messages/{id}/report",
    caller: console,
    answer: done,
    parameters: [{ name: "id", in: "path", description: "The e-mail's id", schema: Schema.String, required: true }],
    body: consoleBody({ status: Schema.Literal("delivered", "bounced", "failed", "complained") }),
    output: EmailOutput,
    errors: [NotFound],
    idempotent: false,
    service: EmailSimulator,
    run: (s, _, input) => s.report(input.params.id, input.body.status),
  }),
  operation({
    name: "console.simulator.email.list",
    summary: "The e-mails the simulated provider took, newest first (at most 100), to one address or all.",
    method: "GET",
    path: "/console/v1/simulator/email",
    caller: console,
    answer: done,
    parameters: [{
      name: "to",
      in: "query",
      description: "A recipient, as it was sent",
      schema: StorableText,
      required: false,
    }],
    body: undefined,
    output: Schema.Array(Schema.Struct({
      id: Schema.String,
      from: Schema.String,
      to: Schema.String,
      subject: Schema.String,
      text: Schema.NullOr(Schema.String),
      html: Schema.NullOr(Schema.String),
      sent_at: Schema.String,
    })),
    errors: [],
    idempotent: false,
    service: EmailSimulator,
    run: (s, _, input) => Effect.map(s.received(input.query.to), (rows) => rows),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
