/**
 * The webhook dispatcher: routes new outbox events into deliveries, then leases due deliveries and
 * attempts them, recording each attempt and scheduling the next. Every process runs it; they share
 * the work through the store (row locks with SKIP LOCKED, leases that lapse when a process dies).
 */
import { Clock, Effect, Either, Metric, Option } from "effect"
import { Metrics } from "../shared/metrics.ts"
import { DnsResolver } from "../../ports/dns.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import {
  type ClaimedDelivery,
  WebhookDeliveriesRepo,
  type WebhookDelivery,
} from "../../ports/store/webhook-deliveries.ts"
import { type EndpointOwner, type WebhookEndpoint, WebhookEndpointsRepo } from "../../ports/store/webhook-endpoints.ts"
import { WebhookSigner } from "../../ports/webhook-signer.ts"
import { WebhookTransport } from "../../ports/webhook-transport.ts"
import { Webhooks } from "../limits.ts"
import { accountWebhookId, envelopeBody, newWebhookId, signedHeaders } from "./envelope.ts"
import { candidateOwners, routeEvent } from "./routing.ts"
import { afterAttempt, Dispatch, isSuccessStatus } from "./schedule.ts"
import { checkedAddresses, WebhookPolicy } from "./url-policy.ts"

export const WebhookJob = "webhooks.dispatch"

const ownerKey = (o: EndpointOwner) => `${o.kind}:${o.id}`

export class WebhookDispatcher extends Effect.Service<WebhookDispatcher>()("core/WebhookDispatcher", {
  effect: Effect.gen(function* () {
    const tx = yield* Transactor
    const repo = yield* WebhookDeliveriesRepo
    const endpoints = yield* WebhookEndpointsRepo
    const secrets = yield* Secrets
    const signer = yield* WebhookSigner
    const transport = yield* WebhookTransport
    const policy = yield* WebhookPolicy
    const dns = yield* DnsResolver
    // One run at a time in this process: the real-time loops and a simulated-clock advance take turns.
    const turn = yield* Effect.makeSemaphore(1)

    const delivery = (e: OutboxEvent, owner: EndpointOwner, data: Record<string, unknown>, now: number) =>
      Effect.map(Effect.zip(secrets.uuid, newWebhookId), ([id, fresh]): WebhookDelivery => ({
        id,
        // The account's copy has the id the event's data and the partner feed name (core/webhooks/envelope.ts).
        webhookId: owner.kind === "account" ? accountWebhookId(e.id) : fresh,
        owner,
        eventId: e.id,
        event: e.event,
        data,
        test: false,
        status: "pending",
        scheduledAttempts: 0,
        manual: false,
        nextAttemptAt: now,
        createdAt: now,
      })).pipe(Effect.provideService(Secrets, secrets))

    /**
     * Routes one stretch of new outbox events in one transaction and moves the routing cursor past it; answers
     * how many events the stretch held.
     */
    const route = tx.withTransaction(Effect.gen(function* () {
      const { events, read, through } = yield* repo.unrouted(Dispatch.routeBatch)
      if (through === null) return 0
      const now = yield* Clock.currentTimeMillis
      const known = new Map<string, WebhookEndpoint | undefined>()
      for (const owner of events.flatMap(candidateOwners)) {
        if (!known.has(ownerKey(owner))) known.set(ownerKey(owner), Option.getOrUndefined(yield* endpoints.get(owner)))
      }
      const deliveries: Array<WebhookDelivery> = []
      for (const e of events) {
        for (const r of routeEvent(e, (o) => known.get(ownerKey(o)))) {
          deliveries.push(yield* delivery(e, r.owner, r.data, now))
        }
      }
      yield* repo.enqueue(deliveries)
      yield* repo.markRouted(through)
      return read
    }))

    /**
     * Where a delivery to `url` may connect: anywhere the transport resolves it to while private targets are
     * allowed; else only to the addresses its host resolves to now, each checked public (DECISIONS 18).
     */
    const target = (url: string) =>
      policy.allowPrivate ? Effect.succeed(undefined) : Effect.provideService(checkedAddresses(url), DnsResolver, dns)

    /** One attempt of a leased delivery, recorded with its outcome. */
    const attempt = (c: ClaimedDelivery) =>
      Effect.gen(function* () {
        const d = c.delivery
        const at = yield* Clock.currentTimeMillis
        const result = c.endpoint === null
          ? Either.left({ message: "the endpoint no longer exists", latencyMs: 0 })
          : yield* Effect.either(
            Effect.suspend(() => {
              const body = envelopeBody(d, at)
              const headers = signedHeaders(signer, secrets.unseal(c.endpoint!.secret), d.webhookId, at, body)
              return Effect.flatMap(
                Effect.mapError(target(c.endpoint!.url), (refused) => ({
                  message: `${refused.message}; not connected`,
                  latencyMs: 0,
                })),
                (addresses) => transport.post(c.endpoint!.url, headers, body, Webhooks.timeoutMs, addresses),
              )
            }).pipe(
              Effect.catchAllDefect(() => Effect.fail({ message: "the delivery could not be signed", latencyMs: 0 })),
            ),
          )
        const status = Either.isRight(result) ? result.right.status : null
        const succeeded = status !== null && isSuccessStatus(status)
        const outcome = afterAttempt(d, succeeded, yield* Clock.currentTimeMillis)
        const latencyMs = Either.isRight(result) ? result.right.latencyMs : result.left.latencyMs
        const error = Either.isLeft(result) ? result.left.message : succeeded ? null : `HTTP ${status}`
        yield* repo.record(d.id, c.leaseToken, { at, statusCode: status, latencyMs, error }, outcome)
        yield* counted(d, succeeded, at)
        // Its ids, the event's name and the outcome: never the URL, the secret or the data.
        // `status`: pending (retried later), succeeded or failed (given up).
        yield* (succeeded ? Effect.logDebug("webhook delivered") : Effect.logWarning("webhook delivery failed")).pipe(
          Effect.annotateLogs({
            delivery_id: d.id,
            webhook_id: d.webhookId,
            event: d.event,
            status: outcome.status,
            status_code: status,
            latency_ms: latencyMs,
            error,
            attempts: outcome.scheduledAttempts,
          }),
        )
      }).pipe(Effect.withSpan("Webhooks.attempt", {
        captureStackTrace: false,
        attributes: { "webhook.event": c.delivery.event, "webhook.id": c.delivery.webhookId },
      }))

    /** The attempt's metrics: its outcome, a retry, the first attempt's lag behind the delivery's creation. */
    const counted = (d: WebhookDelivery, succeeded: boolean, at: number) =>
      Effect.all([
        Metric.increment(Metric.tagged(Metrics.webhookDeliveries, "outcome", succeeded ? "succeeded" : "failed")),
        d.scheduledAttempts > 0 || d.manual
          ? Metric.increment(Metrics.webhookRetries)
          : Metric.update(Metrics.outboxLag, Math.max(0, at - d.createdAt) / 1000),
      ], { discard: true })

    /** Leases one batch of due deliveries and attempts them together; answers how many it took. */
    const deliver = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const claimed = yield* repo.claimDue(now, now + Dispatch.leaseMs, yield* secrets.uuid, Dispatch.batch)
      yield* Effect.forEach(claimed, attempt, { concurrency: "unbounded", discard: true })
      return claimed.length
    })

    /**
     * Runs until nothing is due now (bounded), so that a simulated-clock advance leaves no due work
     * behind. An idle run costs one query.
     */
    const run = turn.withPermits(1)(Effect.gen(function* () {
      const due = yield* repo.nextDue
      if (Option.isNone(due) || due.value > (yield* Clock.currentTimeMillis)) return
      for (let round = 0; round < Dispatch.maxRounds; round++) {
        const routed = yield* route
        const delivered = yield* deliver
        // A stretch short of the batch reached the end of what is settled: events appended since wait for the
        // next run rather than keep this one going round under a steady stream.
        if (routed < Dispatch.routeBatch && delivered === 0) return
      }
    }))

    return { route, deliver, run, nextDue: repo.nextDue } as const
  }),
}) {}
