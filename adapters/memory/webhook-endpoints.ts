import { Effect, Layer, Option } from "effect"
import { WebhookEndpointsRepo } from "../../ports/store/webhook-endpoints.ts"
import { memoryTables, setIn } from "./db.ts"

import type { WebhookEndpoint } from "../../ports/store/webhook-endpoints.ts"
export const webhookEndpointTables = () => ({ webhookEndpoints: new Map<string, WebhookEndpoint>() })

const ownerKey = (kind: string, id: string) => `${kind}\u0000${id}`

export const WebhookEndpointsRepoMemory = Layer.effect(
  WebhookEndpointsRepo,
  Effect.map(memoryTables(webhookEndpointTables), (db) => ({
    put: (e) =>
      db.write((t, record) =>
        setIn(t.webhookEndpoints, ownerKey(e.owner.kind, e.owner.id), {
          owner: { kind: e.owner.kind, id: e.owner.id },
          url: e.url,
          secret: e.secret,
          events: e.events,
        }, record)
      ),
    get: (owner) => db.read((t) => Option.fromNullable(t.webhookEndpoints.get(ownerKey(owner.kind, owner.id)))),
  })),
)
