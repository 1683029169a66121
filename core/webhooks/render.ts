/** The delivery log as the console shows it. */
import type { DeliveryAttempt, DeliveryLogEntry, WebhookDelivery } from "../../ports/store/webhook-deliveries.ts"
import { isoMillis } from "../shared/riyadh.ts"

export const attemptJson = (a: DeliveryAttempt) => ({
  at: isoMillis(a.at),
  status_code: a.statusCode,
  latency_ms: a.latencyMs,
  error: a.error,
})

export const deliveryJson = (d: WebhookDelivery, attempts: ReadonlyArray<DeliveryAttempt> = []) => ({
  id: d.id,
  webhook_id: d.webhookId,
  event: d.event,
  event_id: d.eventId,
  test: d.test,
  status: d.status,
  endpoint: { kind: d.owner.kind, id: d.owner.id },
  created_at: isoMillis(d.createdAt),
  next_attempt_at: d.nextAttemptAt === null ? null : isoMillis(d.nextAttemptAt),
  attempts: attempts.map(attemptJson),
})

export const logJson = (entry: DeliveryLogEntry) => deliveryJson(entry.delivery, entry.attempts)
