/**
 * The console's webhook operations (DECISIONS 2), each declared once: endpoints of applications and
 * accounts, rehearsals, the delivery log, replays. The console checks its own fields (with console
 * messages); the body Schemas here document them.
 */
import { Effect, Either, Schema } from "effect"
import { InvalidRequest, NotFound } from "../errors.ts"
import { Fields as FieldLimits, Lists } from "../limits.ts"
import { type AnyOperation, operation, type Parameter, type RawInput } from "../pipeline/operation.ts"
import { type OwnerKind, WebhookConsole } from "./console.ts"
import { WebhookPolicy } from "./url-policy.ts"

const console = { _tag: "Console" } as const
const done = { status: 200, envelope: "data" } as const
const raw = (r: RawInput) => Either.right(r)
const body = (r: RawInput) => r.body ?? {}

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

const Url = Schema.String.pipe(Schema.maxLength(FieldLimits.maxUrlLength))
const EndpointBody = Schema.Struct({ url: Url })
/** An account's endpoint names the verification events it takes (default: all). */
const AccountEndpointBody = Schema.Struct({ url: Url, events: Schema.optional(Schema.Array(Schema.String)) })

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
      decode: raw,
      output: EndpointOutput,
      errors: [NotFound],
      idempotent: false,
      service: WebhookConsole,
      run: (w, _, r) =>
        Effect.flatMap(WebhookPolicy, (policy) => w.putEndpoint(kind, r.params[kind], body(r), policy.allowPrivate)),
    }),
    operation({
      name: `console.${segment}.webhook.test`,
      summary: "Sends a rehearsal of an event (`test: true`) to the endpoint.",
      method: "POST",
      path: `/console/v1/${segment}/{${kind}}/webhook/test`,
      caller: console,
      answer: done,
      parameters: [parameter],
      body: Schema.Struct({ event: Schema.optional(Schema.String) }),
      decode: raw,
      output: Schema.Struct({ delivery_id: Schema.UUID, webhook_id: Schema.String }),
      errors: [NotFound],
      idempotent: false,
      service: WebhookConsole,
      run: (w, _, r) => w.rehearse(kind, r.params[kind], body(r)),
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
      { name: "application", in: "query", description: "An application id", schema: Schema.UUID, required: false },
      { name: "account", in: "query", description: "An account id", schema: Schema.UUID, required: false },
      {
        name: "limit",
        in: "query",
        description: `At most this many (1 to ${Lists.maxLimit}, default ${Lists.defaultLimit})`,
        schema: Schema.Int,
        required: false,
      },
    ],
    body: undefined,
    decode: raw,
    output: Schema.Array(DeliveryOutput),
    errors: [NotFound, InvalidRequest],
    idempotent: false,
    service: WebhookConsole,
    run: (w, _, r) => w.list(r.query),
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
    decode: raw,
    output: DeliveryOutput,
    errors: [NotFound],
    idempotent: false,
    service: WebhookConsole,
    run: (w, _, r) => w.replay(r.params.delivery),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
