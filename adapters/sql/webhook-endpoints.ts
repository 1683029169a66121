import { Effect, Layer } from "effect"
import { type EndpointOwner, WebhookEndpointsRepo } from "../../ports/store/webhook-endpoints.ts"
import { client, first, json, toJson } from "./rows.ts"

export const WebhookEndpointsRepoSql = Layer.effect(
  WebhookEndpointsRepo,
  Effect.gen(function* () {
    const sql = yield* client
    return {
      put: (e) =>
        sql`INSERT INTO webhook_endpoints (owner_kind, owner_id, url, secret, events)
          VALUES (${e.owner.kind}, ${e.owner.id}, ${e.url}, ${e.secret}, ${toJson(e.events)}::jsonb)
          ON CONFLICT (owner_kind, owner_id) DO UPDATE
          SET url = EXCLUDED.url, secret = EXCLUDED.secret, events = EXCLUDED.events`.pipe(Effect.asVoid, Effect.orDie),
      get: (owner) =>
        sql`SELECT url, secret, events FROM webhook_endpoints
          WHERE owner_kind = ${owner.kind} AND owner_id = ${owner.id}`.pipe(
          Effect.map((rows) =>
            first(rows, (row) => ({
              owner: { kind: owner.kind, id: owner.id } satisfies EndpointOwner,
              url: row.url as string,
              secret: row.secret as string,
              events: json<ReadonlyArray<string>>(row.events),
            }))
          ),
          Effect.orDie,
        ),
    }
  }),
)
