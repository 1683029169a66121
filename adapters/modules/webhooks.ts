/** Signed webhooks: endpoints, deliveries and attempts, the dispatcher and its job, the console's routes. */
import { Layer } from "effect"
import { WebhookConsole } from "../../core/webhooks/console.ts"
import { WebhookDispatcher } from "../../core/webhooks/dispatcher.ts"
import { webhookOperations, WebhookPolicy } from "../../core/webhooks/operations.ts"
import { WebhookDeliveriesRepoMemory } from "../memory/webhook-deliveries.ts"
import { WebhookEndpointsRepoMemory } from "../memory/webhook-endpoints.ts"
import { product } from "../product.ts"
import { migration as endpoints } from "../sql/migrations/webhooks/0001_endpoints.ts"
import { migration as deliveries } from "../sql/migrations/webhooks/0002_deliveries.ts"
import { WebhookDeliveriesRepoSql } from "../sql/webhook-deliveries.ts"
import { WebhookEndpointsRepoSql } from "../sql/webhook-endpoints.ts"
import { FetchWebhookTransport } from "../webhooks/fetch-transport.ts"
import { webhookJob } from "../webhooks/job.ts"
import { WebhookSignerLive } from "../webhooks/signer.ts"
import { Effect } from "effect"

export const webhooksProduct = product({
  name: "webhooks",
  memory: Layer.mergeAll(WebhookEndpointsRepoMemory, WebhookDeliveriesRepoMemory),
  sql: Layer.mergeAll(WebhookEndpointsRepoSql, WebhookDeliveriesRepoSql),
  migrations: [endpoints, deliveries],
  services: (settings) =>
    Layer.mergeAll(WebhookDispatcher.Default, WebhookConsole.Default).pipe(
      Layer.provideMerge(
        Layer.mergeAll(
          FetchWebhookTransport,
          WebhookSignerLive,
          Layer.succeed(WebhookPolicy, { allowPrivate: settings.webhookAllowPrivate }),
        ),
      ),
    ),
  operations: webhookOperations,
  jobs: Effect.map(webhookJob, (job) => [job]),
})
