/**
 * `service.*` events (DECISIONS 13): moves of an application that reach the account's webhook and the
 * partner's feed. `data.id` is the `webhook-id` of the event's delivery to the account, so a receiver
 * deduplicates on it (DECISIONS 15).
 */
import { Effect } from "effect"
import { OutboxRepo } from "../../ports/store/outbox.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { EventId, Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { accountWebhookId } from "../webhooks/envelope.ts"
import type { Application } from "./model.ts"

/** The `data` of a `service.*` event. */
export const serviceEventData = (
  id: string,
  application: Application,
  previousStatus: string,
  now: Millis,
  extra: Record<string, unknown> = {},
) => ({
  id,
  service_id: application.id,
  application_id: application.id,
  external_id: application.externalId,
  status: application.status,
  previous_status: previousStatus,
  occurred_at: isoMillis(now),
  ...extra,
})

/** Appends a `service.*` event of `application` (as it is after the move) to the outbox. */
export const serviceEvent = (
  application: Application,
  event: string,
  now: Millis,
  extra?: Record<string, unknown>,
  previousStatus: string = application.status,
) =>
  Effect.gen(function* () {
    const id = (yield* (yield* Secrets).uuid) as EventId
    yield* (yield* OutboxRepo).append([{
      id,
      event,
      data: serviceEventData(accountWebhookId(id), application, previousStatus, now, extra),
      applicationId: application.id,
      accountId: application.accountId,
      externalId: application.externalId,
      createdAt: now,
    }])
  })
