/** The console's webhook use cases (DECISIONS 2): endpoints, rehearsals, the delivery log, replays. */
import { Clock, Effect, Either, Option } from "effect"
import { DnsResolver } from "../../ports/dns.ts"
import { Secrets } from "../../ports/secrets.ts"
import { WebhookDeliveriesRepo, type WebhookDelivery } from "../../ports/store/webhook-deliveries.ts"
import { type EndpointOwner, WebhookEndpointsRepo } from "../../ports/store/webhook-endpoints.ts"
import type { Application } from "../accounts/model.ts"
import { Console } from "../console/service.ts"
import { InvalidRequest, notFound } from "../errors.ts"
import { Fields as FieldLimits, Lists } from "../limits.ts"
import type { Json } from "../shared/json.ts"
import { isUuid } from "../shared/brands.ts"
import { FieldReader } from "../shared/fields.ts"
import { DefaultRehearsalEvent, isKnownEvent, isVerificationEvent } from "./events.ts"
import { newEndpointSecret, newWebhookId } from "./envelope.ts"
import { deliveryJson, logJson } from "./render.ts"
import { sampleData } from "./samples.ts"
import { checkedAddresses, urlProblem } from "./url-policy.ts"
import { untracedStacks } from "../shared/tracing.ts"

export type OwnerKind = EndpointOwner["kind"]

export class WebhookConsole extends Effect.Service<WebhookConsole>()("core/WebhookConsole", {
  effect: Effect.gen(function* () {
    const operator = yield* Console
    const endpoints = yield* WebhookEndpointsRepo
    const deliveries = yield* WebhookDeliveriesRepo
    const secrets = yield* Secrets
    const dns = yield* DnsResolver
    const provided = <A, E>(self: Effect.Effect<A, E, Secrets>) => Effect.provideService(self, Secrets, secrets)

    /** The owner, checked to exist, and its application when it is one. */
    const ownerOf = (kind: OwnerKind, id: string) =>
      kind === "application"
        ? Effect.map(
          operator.application(id),
          (a) => ({
            owner: { kind, id: a.id } as EndpointOwner,
            application: a as Application | null,
            accountId: a.accountId,
          }),
        )
        : Effect.map(
          operator.account(id),
          (a) => ({ owner: { kind, id: a.id } as EndpointOwner, application: null, accountId: a.id }),
        )

    const putEndpoint = Effect.fn("WebhookConsole.putEndpoint", untracedStacks)(
      function* (kind: OwnerKind, id: string, body: Json, allowPrivate: boolean) {
        const { owner } = yield* ownerOf(kind, id)
        const f = new FieldReader(body)
        const url = f.string("url", { required: true, max: FieldLimits.maxUrlLength })
        const problem = url === undefined ? undefined : urlProblem(url, allowPrivate)
        if (problem !== undefined) f.refuse("url", problem)
        else if (url !== undefined && !allowPrivate) {
          // A name that does not resolve yet is accepted: each delivery checks it again (url-policy.ts).
          const target = yield* Effect.either(Effect.provideService(checkedAddresses(url), DnsResolver, dns))
          if (Either.isLeft(target) && target.left.reason === "not_public") {
            f.refuse(
              "url",
              `must not resolve to a loopback, private or otherwise non-public address (it resolves to ${target.left.address})`,
            )
          }
        }
        const events = kind === "account" ? [...new Set(f.stringArray("events") ?? [])] : []
        const refusedEvent = events.find((e) => !isVerificationEvent(e))
        if (refusedEvent !== undefined) {
          f.refuse("events", `only verification.* events may be named, not ${refusedEvent}`)
        }
        if (f.error) return yield* f.error
        const existing = yield* endpoints.get(owner)
        const secret = Option.isSome(existing)
          ? secrets.unseal(existing.value.secret)
          : yield* provided(newEndpointSecret)
        yield* endpoints.put({ owner, url: url!, secret: secrets.seal(secret), events })
        return kind === "account" ? { url: url!, secret, events } : { url: url!, secret }
      },
    )

    const rehearse = Effect.fn("WebhookConsole.rehearse", untracedStacks)(
      function* (kind: OwnerKind, id: string, body: Json) {
        const { owner, application, accountId } = yield* ownerOf(kind, id)
        const event = body.event === undefined || body.event === null ? DefaultRehearsalEvent : body.event
        if (typeof event !== "string" || !isKnownEvent(event)) {
          return yield* new InvalidRequest({
            message: "`event` must name an event of the catalogue.",
            fields: { event: "unknown event" },
          })
        }
        if (Option.isNone(yield* endpoints.get(owner))) return yield* notFound
        const now = yield* Clock.currentTimeMillis
        const delivery: WebhookDelivery = {
          id: yield* secrets.uuid,
          webhookId: yield* provided(newWebhookId),
          owner,
          eventId: null,
          event,
          data: sampleData(event, { accountId, application, now }),
          test: true,
          status: "pending",
          scheduledAttempts: 0,
          manual: false,
          nextAttemptAt: now,
          createdAt: now,
        }
        yield* deliveries.enqueue([delivery])
        return { delivery_id: delivery.id, webhook_id: delivery.webhookId }
      },
    )

    const list = Effect.fn("WebhookConsole.list", untracedStacks)(function* (query: URLSearchParams) {
      const application = query.get("application")
      const account = query.get("account")
      if ((application === null) === (account === null)) {
        return yield* new InvalidRequest({
          message: "Name exactly one of `application` and `account`.",
          fields: { [application === null ? "application" : "account"]: "name exactly one of application and account" },
        })
      }
      const limitText = query.get("limit")
      const limit = limitText === null ? Lists.defaultLimit : Number(limitText)
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > Lists.maxLimit) {
        return yield* new InvalidRequest({
          message: "`limit` is out of bounds.",
          fields: { limit: `1 to ${Lists.maxLimit}` },
        })
      }
      const { owner } =
        yield* (application !== null ? ownerOf("application", application) : ownerOf("account", account!))
      return (yield* deliveries.list(owner, limit)).map(logJson)
    })

    const replay = Effect.fn("WebhookConsole.replay", untracedStacks)(function* (deliveryId: string) {
      if (!isUuid(deliveryId)) return yield* notFound
      const replayed = yield* deliveries.replay(deliveryId, yield* Clock.currentTimeMillis)
      if (Option.isNone(replayed)) return yield* notFound
      return deliveryJson(replayed.value)
    })

    return { putEndpoint, rehearse, list, replay } as const
  }),
}) {}
