/** The console's webhook routes (DECISIONS 2): endpoints, rehearsals, the delivery log, replays. */
import { Effect } from "effect"
import { type OwnerKind, WebhookConsole } from "../../core/webhooks/console.ts"
import { PlatformConfig } from "../config.ts"
import { consoleData, consoleRoute, requireJson, type Route } from "./operation.ts"

const done = consoleData

const route = consoleRoute

const withWebhooks = <A, E, R>(f: (w: WebhookConsole) => Effect.Effect<A, E, R>) => Effect.flatMap(WebhookConsole, f)

const ownerRoutes = (kind: OwnerKind, segment: string): ReadonlyArray<Route<any>> => [
  route("PUT", `/${segment}/:owner/webhook`, (req, p) =>
    Effect.gen(function* () {
      const body = yield* requireJson(req)
      const { webhookAllowPrivate } = yield* PlatformConfig
      return done(yield* withWebhooks((w) => w.putEndpoint(kind, p.owner, body, webhookAllowPrivate)))
    })),
  route(
    "POST",
    `/${segment}/:owner/webhook/test`,
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withWebhooks((w) => w.rehearse(kind, p.owner, b))).pipe(Effect.map(done)),
  ),
]

export const webhookRoutes: ReadonlyArray<Route<any>> = [
  ...ownerRoutes("application", "applications"),
  ...ownerRoutes("account", "accounts"),
  route("GET", "/webhook-deliveries", (req) => withWebhooks((w) => w.list(req.query)).pipe(Effect.map(done))),
  route(
    "POST",
    "/webhook-deliveries/:delivery/replay",
    (_req, p) => withWebhooks((w) => w.replay(p.delivery)).pipe(Effect.map(done)),
  ),
]
