/**
 * Signed webhooks: endpoints, deliveries and attempts, the dispatcher and its job, the console's routes, and the
 * retention of the delivery log and of the outbox the dispatcher routes.
 */
import { Effect, Layer, Option } from "effect"
import { Retention, Webhooks } from "../../core/limits.ts"
import type { DnsResolver } from "../../ports/dns.ts"
import type { WebhookTransport } from "../../ports/webhook-transport.ts"
import type { Job } from "../../core/shared/job.ts"
import { WebhookDeliveriesRepo } from "../../ports/store/webhook-deliveries.ts"
import type { JobsRepo } from "../../ports/store/jobs.ts"
import { WebhookConsole } from "../../core/webhooks/console.ts"
import { WebhookDispatcher } from "../../core/webhooks/dispatcher.ts"
import { webhookOperations } from "../../core/webhooks/operations.ts"
import { WebhookPolicy } from "../../core/webhooks/url-policy.ts"
import { WebhookDeliveriesRepoMemory } from "../memory/webhook-deliveries.ts"
import { WebhookEndpointsRepoMemory } from "../memory/webhook-endpoints.ts"
import { webhookPages } from "../console/pages/webhooks.tsx"
import { product } from "../product.ts"
import { migration as endpoints } from "../sql/migrations/webhooks/0001_endpoints.ts"
import { migration as deliveries } from "../sql/migrations/webhooks/0002_deliveries.ts"
import { migration as retentionIndex } from "../sql/migrations/webhooks/0003_retention.ts"
import { migration as routingCursor } from "../sql/migrations/webhooks/0004_routing_cursor.ts"
import { earliest } from "../jobs.ts"
import { inBatches, retentionJob } from "../retention.ts"
import { WebhookDeliveriesRepoSql } from "../sql/webhook-deliveries.ts"
import { WebhookEndpointsRepoSql } from "../sql/webhook-endpoints.ts"
import { HttpWebhookTransport } from "../webhooks/http-transport.ts"
import { webhookJob } from "../webhooks/job.ts"
import { WebhookSignerLive } from "../webhooks/signer.ts"
import { SystemDnsResolver } from "../webhooks/dns.ts"

const RetentionJob = "webhooks.retention"

/**
 * Finished deliveries (succeeded or given up) `Retention.webhookLogMs` after they were created, with their
 * attempts; outbox events `Retention.outboxMs` after they were appended, once routed and with no delivery pending.
 */
export const webhooksRetention: Effect.Effect<Job, never, WebhookDeliveriesRepo | JobsRepo> = Effect.flatMap(
  WebhookDeliveriesRepo,
  (repo) =>
    retentionJob(
      RetentionJob,
      Effect.map(repo.oldestPrunable, (o) =>
        earliest(
          Option.map(o.delivery, (at) => at + Retention.webhookLogMs + 1),
          Option.map(o.event, (at) => at + Retention.outboxMs + 1),
        )),
      (now) =>
        Effect.zipRight(
          inBatches((limit) => repo.pruneLog(now - Retention.webhookLogMs, limit)),
          inBatches((limit) => repo.pruneOutbox(now - Retention.outboxMs, limit)),
        ),
    ),
)

/**
 * The webhooks product resolving endpoint host names with `resolver` and posting with `transport` (tests give
 * fixed answers and record what is posted).
 */
export const webhooksProductWith = (
  resolver: Layer.Layer<DnsResolver>,
  transport: Layer.Layer<WebhookTransport> = HttpWebhookTransport,
) =>
  product({
    name: "webhooks",
    memory: Layer.mergeAll(WebhookEndpointsRepoMemory, WebhookDeliveriesRepoMemory),
    sql: Layer.mergeAll(WebhookEndpointsRepoSql, WebhookDeliveriesRepoSql),
    migrations: [endpoints, deliveries, retentionIndex, routingCursor],
    services: (settings) =>
      Layer.mergeAll(WebhookDispatcher.Default, WebhookConsole.Default).pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            transport,
            resolver,
            WebhookSignerLive,
            Layer.succeed(WebhookPolicy, { allowPrivate: settings.webhookAllowPrivate }),
          ),
        ),
      ),
    operations: webhookOperations,
    pages: webhookPages,
    jobs: Effect.all([webhookJob, webhooksRetention]),
  })

export const webhooksProduct = webhooksProductWith(SystemDnsResolver(Webhooks.timeoutMs))
