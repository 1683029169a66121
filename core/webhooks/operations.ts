/**
 * The console's webhook operations (DECISIONS 2), each declared once: endpoints of applications and
 * accounts, their signing secrets rotated, rehearsals, the delivery log, replays. Bodies and the log's query decode through the Schemas here
 * (a console body: other fields ignored, `null` as not given); where an URL may point is the use case's.
 */
import { Effect, Schema } from "effect"
import { InvalidRequest, NotFound } from "../errors.ts"
import { limitParameter } from "../accounts/lists.ts"
import { Fields as FieldLimits } from "../limits.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { check, consoleBody, NonBlank, oneField, Text } from "../shared/fields.ts"
import { type OwnerKind, WebhookConsole } from "./console.ts"
import { isKnownEvent } from "./events.ts"
import { WebhookPolicy } from "./url-policy.ts"

const console = { _tag: "Console" } as const
const done = { status: 200, envelope: "data" } as const

const ownerParameter = (name: string, description: string): Parameter => ({
  name,
  in: "path",
  description,
  schema: Schema.UUID,
  required: true,
})

const Attempt = Schema.Struct({
  at: Schema.String,
  status_code: Schema.NullOr(Schema.Number),
  latency_ms: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
})

export const DeliveryOutput = Schema.Struct({
  id: Schema.UUID,
  webhook_id: Schema.String,
  event: Schema.String,
  event_id: Schema.NullOr(Schema.String),
  test: Schema.Boolean,
  status: Schema.String,
  endpoint: Schema.Struct({ kind: Schema.Literal("application", "account"), id: Schema.UUID }),
  created_at: Schema.String,
  next_attempt_at: Schema.NullOr(Schema.String),
  attempts: Schema.Array(Attempt),
})

const EndpointOutput = Schema.Struct({
  url: Schema.String,
  secret: Schema.String,
  events: Schema.optional(Schema.Array(Schema.String)),
})

const Url = NonBlank(Text(FieldLimits.maxUrlLength))
const EndpointBody = consoleBody({ url: Url })
/** An account's endpoint names the verification events it takes (default: none). */
const AccountEndpointBody = consoleBody({ url: Url, events: Schema.optional(oneField(Schema.Array(Schema.String))) })
const RehearsalBody = consoleBody({
  event: Schema.optional(
    Schema.String.pipe(check(isKnownEvent, "must name an event of the catalogue")),
  ),
})

const ownerOperations = <const Kind extends OwnerKind, const Segment extends string>(kind: Kind, segment: Segment) => {
  const parameter = ownerParameter(kind, `The ${kind} id`)
  return [
    operation({
      name: `console.${segment}.webhook.put`,
      summary: `Sets the ${kind}'s webhook endpoint (its signing secret is made once and kept).`,
      method: "PUT",
      path: `/console/v1/${segment}/{${kind}}/webhook`,
      caller: console,
      answer: done,
      parameters: [parameter],
      body: kind === "account" ? AccountEndpointBody : EndpointBody,
      output: EndpointOutput,
      errors: [NotFound],
      idempotent: false,
      service: WebhookConsole,
      run: (w, _, input) =>
        Effect.flatMap(
          WebhookPolicy,
          (policy) => w.putEndpoint(kind, input.params[kind], input.body, policy.allowPrivate),
        ),
    }),
    operation({
      name: `console.${segment}.webhook.rotate_secret`,
      summary: "Rotates the endpoint's signing secret: the new one is answered once and signs every attempt from " +
        "now on (retries of earlier deliveries too); the old one signs nothing more.",
      method: "POST",
      path: `/console/v1/${segment}/{${kind}}/webhook/secret/rotate`,
      caller: console,
      answer: done,
      parameters: [parameter],
      body: consoleBody({}),
      output: EndpointOutput,
      errors: [NotFound],
      idempotent: false,
      service: WebhookConsole,
      run: (w, _, input) => w.rotateSecret(kind, input.params[kind]),
    }),
    operation({
      name: `console.${segment}.webhook.test`,
      summary: "Sends a rehearsal of an event (`test: true`) to the endpoint.",
      method: "POST",
      path: `/console/v1/${segment}/{${kind}}/webhook/test`,
      caller: console,
      answer: done,
      parameters: [parameter],
      body: RehearsalBody,
      output: Schema.Struct({ delivery_id: Schema.UUID, webhook_id: Schema.String }),
      errors: [NotFound],
      idempotent: false,
      service: WebhookConsole,
      run: (w, _, input) => w.rehearse(kind, input.params[kind], input.body),
    }),
  ] as const
}

export const webhookOperations = [
  ...ownerOperations("application", "applications"),
  ...ownerOperations("account", "accounts"),
  operation({
    name: "console.webhook_deliveries.list",
    summary: "The delivery log of one application's or account's endpoint, newest first.",
    method: "GET",
    path: "/console/v1/webhook-deliveries",
    caller: console,
    answer: done,
    parameters: [
      // Any text: one that names no application or account is `404`, as an unknown id.
      { name: "application", in: "query", description: "An application id", schema: Schema.String, required: false },
      { name: "account", in: "query", description: "An account id", schema: Schema.String, required: false },
      limitParameter,
    ],
    body: undefined,
    output: Schema.Array(DeliveryOutput),
    errors: [NotFound, InvalidRequest],
    idempotent: false,
    service: WebhookConsole,
    run: (w, _, input) => w.list(input.query),
  }),
  operation({
    name: "console.webhook_deliveries.replay",
    summary: "Sends a delivery again now, whatever its state.",
    method: "POST",
    path: "/console/v1/webhook-deliveries/{delivery}/replay",
    caller: console,
    answer: done,
    parameters: [ownerParameter("delivery", "The delivery id")],
    body: undefined,
    output: DeliveryOutput,
    errors: [NotFound],
    idempotent: false,
    service: WebhookConsole,
    run: (w, _, input) => w.replay(input.params.delivery),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
