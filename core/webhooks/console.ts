/**
 * The console's webhook use cases (DECISIONS 2): endpoints, their signing secrets rotated, rehearsals, the
 * delivery log, replays.
 */
import { Clock, Effect, Either, Option } from "effect"
import { DnsResolver } from "../../ports/dns.ts"
import { Secrets } from "../../ports/secrets.ts"
import { WebhookDeliveriesRepo, type WebhookDelivery } from "../../ports/store/webhook-deliveries.ts"
import { type EndpointOwner, WebhookEndpointsRepo } from "../../ports/store/webhook-endpoints.ts"
import type { Application } from "../accounts/model.ts"
import { Console } from "../console/service.ts"
import { notFound } from "../errors.ts"
import { Lists } from "../limits.ts"
import { fieldsRefused } from "../pipeline/decode.ts"
import { isUuid } from "../shared/brands.ts"
import { DefaultRehearsalEvent, isVerificationEvent } from "./events.ts"
import { newEndpointSecret, newWebhookId } from "./envelope.ts"
import { deliveryJson, logJson } from "./render.ts"
import { sampleData } from "./samples.ts"
import { checkedAddresses, urlProblem } from "./url-policy.ts"
import { untracedStacks } from "../shared/tracing.ts"

export type OwnerKind = EndpointOwner["kind"]

/** An endpoint as its Schema decodes it (core/webhooks/operations.ts); `events` only an account's. */
export interface EndpointInput {
  readonly url: string
  readonly events?: ReadonlyArray<string>
}

/** The delivery log's query: exactly one owner, and how many (`limit`). */
export interface DeliveriesQuery {
  readonly application?: string
  readonly account?: string
  readonly limit?: number
}

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
      function* (kind: OwnerKind, id: string, input: EndpointInput, allowPrivate: boolean) {
        const { owner } = yield* ownerOf(kind, id)
        const { url } = input
        const refused: Record<string, string> = {}
        const problem = urlProblem(url, allowPrivate)
        if (problem !== undefined) refused.url = problem
        else if (!allowPrivate) {
          // A name that does not resolve yet is accepted: each delivery checks it again (url-policy.ts).
          const target = yield* Effect.either(Effect.provideService(checkedAddresses(url), DnsResolver, dns))
          if (Either.isLeft(target) && target.left.reason === "not_public") {
            refused.url =
              `must not resolve to a loopback, private or otherwise non-public address (it resolves to ${target.left.address})`
          }
        }
        const events = kind === "account" ? [...new Set(input.events ?? [])] : []
        const refusedEvent = events.find((e) => !isVerificationEvent(e))
        if (refusedEvent !== undefined) refused.events = `only verification.* events may be named, not ${refusedEvent}`
        const names = Object.keys(refused)
        if (names.length > 0) return yield* fieldsRefused(refused, Object.fromEntries(names.map((n) => [n, "invalid"])))
        const existing = yield* endpoints.get(owner)
        const secret = Option.isSome(existing)
          ? secrets.unseal(existing.value.secret)
          : yield* provided(newEndpointSecret)
        yield* endpoints.put({ owner, url, secret: secrets.seal(secret), events })
        return kind === "account" ? { url, secret, events } : { url, secret }
      },
    )

    /**
     * A new signing secret for the owner's endpoint, answered this once; the old one signs nothing more. Every
     * attempt is signed when it is made, with the endpoint's secret of that moment (dispatcher.ts), so a delivery
     * after the rotation (a retry of an earlier one too) is signed with the new secret alone.
     */
    const rotateSecret = Effect.fn("WebhookConsole.rotateSecret", untracedStacks)(
      function* (kind: OwnerKind, id: string) {
        const { owner } = yield* ownerOf(kind, id)
        const existing = yield* endpoints.get(owner)
        if (Option.isNone(existing)) return yield* notFound
        const secret = yield* provided(newEndpointSecret)
        const { url, events } = existing.value
        yield* endpoints.put({ owner, url, secret: secrets.seal(secret), events })
        return kind === "account" ? { url, secret, events } : { url, secret }
      },
    )

    const rehearse = Effect.fn("WebhookConsole.rehearse", untracedStacks)(
      function* (kind: OwnerKind, id: string, input: { readonly event?: string }) {
        const { owner, application, accountId } = yield* ownerOf(kind, id)
        const event = input.event ?? DefaultRehearsalEvent
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

    const list = Effect.fn("WebhookConsole.list", untracedStacks)(function* (query: DeliveriesQuery) {
      const { application, account } = query
      if ((application === undefined) === (account === undefined)) {
        return yield* fieldsRefused(
          { [application === undefined ? "application" : "account"]: "name exactly one of application and account" },
          { [application === undefined ? "application" : "account"]: "invalid" },
        )
      }
      const { owner } =
        yield* (application !== undefined ? ownerOf("application", application) : ownerOf("account", account!))
      return (yield* deliveries.list(owner, query.limit ?? Lists.defaultLimit)).map(logJson)
    })

    const replay = Effect.fn("WebhookConsole.replay", untracedStacks)(function* (deliveryId: string) {
      if (!isUuid(deliveryId)) return yield* notFound
      const replayed = yield* deliveries.replay(deliveryId, yield* Clock.currentTimeMillis)
      if (Option.isNone(replayed)) return yield* notFound
      return deliveryJson(replayed.value)
    })

    /** The console page's read of an owner's endpoint: its URL and events, never its secret (None: no endpoint). */
    const endpointOf = (kind: OwnerKind, id: string) =>
      Effect.flatMap(
        ownerOf(kind, id),
        ({ owner }) => Effect.map(endpoints.get(owner), Option.map((e) => ({ url: e.url, events: e.events }))),
      )

    return { putEndpoint, rotateSecret, rehearse, list, replay, endpointOf } as const
  }),
}) {}
