/**
 * The webhook dispatcher as a background job. It runs in the shared jobs list (so a simulated-clock
 * advance runs every retry that falls due) and in a loop of its own every 200 ms of real time
 * (its `every`), so a first attempt leaves within about a second.
 */
import { Effect } from "effect"
import { WebhookDispatcher, WebhookJob } from "../../core/webhooks/dispatcher.ts"
import type { Job } from "../../core/shared/job.ts"

export { WebhookJob }

export const webhookJob: Effect.Effect<Job, never, WebhookDispatcher> = Effect.map(WebhookDispatcher, (d) => ({
  name: WebhookJob,
  nextDue: d.nextDue,
  run: d.run,
  every: "200 millis",
}))
