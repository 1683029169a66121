/**
 * Routing: which endpoints an outbox event reaches, with which `data`.
 *
 * - `service.*`, `balance.*`: the endpoint of the event's account (the partner's for `service.*`; any
 *   account's for `balance.low`, DECISIONS 15).
 * - every other event with an application: the application's endpoint, `data` as written.
 * - `verification.*` also: the account's endpoint when its `events` names the event, with
 *   `external_id` (the application's external id, or null) added to `data`.
 */
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import type { EndpointOwner, WebhookEndpoint } from "../../ports/store/webhook-endpoints.ts"
import { isAccountEvent, isVerificationEvent } from "./events.ts"

export interface Route {
  readonly owner: EndpointOwner
  readonly data: Record<string, unknown>
}

/** The owners whose endpoints routing may need for `event`. */
export const candidateOwners = (event: OutboxEvent): ReadonlyArray<EndpointOwner> => {
  const account: EndpointOwner = { kind: "account", id: event.accountId }
  if (isAccountEvent(event.event)) return [account]
  if (event.applicationId === null) return []
  const application: EndpointOwner = { kind: "application", id: event.applicationId }
  return isVerificationEvent(event.event) ? [application, account] : [application]
}

/** `endpointOf` answers the endpoint configured for an owner, if any. */
export const routeEvent = (
  event: OutboxEvent,
  endpointOf: (owner: EndpointOwner) => WebhookEndpoint | undefined,
): ReadonlyArray<Route> => {
  const routes: Array<Route> = []
  for (const owner of candidateOwners(event)) {
    const endpoint = endpointOf(owner)
    if (endpoint === undefined) continue
    if (owner.kind === "application" || isAccountEvent(event.event)) {
      routes.push({ owner, data: event.data })
    } else if (endpoint.events.includes(event.event)) {
      routes.push({ owner, data: { ...event.data, external_id: event.externalId } })
    }
  }
  return routes
}
