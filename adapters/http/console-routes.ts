/** The console API (DECISIONS 2) and its simulators. */
import { Effect, Option } from "effect"
import { Console } from "../../core/console/service.ts"
import { InvalidRequest } from "../../core/errors.ts"
import { ok } from "../../core/pipeline/request.ts"
import { parseSaudiMobile } from "../../core/shared/phone.ts"
import { isoMillis } from "../../core/shared/riyadh.ts"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { advanceSimulatedClock } from "../jobs.ts"
import type { Settings } from "../config.ts"
import { consoleData, consoleRoute, requireJson, type Route } from "./operation.ts"

const created = (body: unknown) => ok({ data: body }, 201)
const done = consoleData

const route = consoleRoute

const withConsole = <A, E, R>(f: (c: Console) => Effect.Effect<A, E, R>) => Effect.flatMap(Console, f)

export const consoleRoutes: ReadonlyArray<Route<any>> = [
  route(
    "POST",
    "/accounts",
    (req) => Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.createAccount(b))).pipe(Effect.map(created)),
  ),
  route(
    "POST",
    "/accounts/:account/applications",
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.createApplication(p.account, b))).pipe(
        Effect.map(created),
      ),
  ),
  route(
    "POST",
    "/applications/:application/approve",
    (_req, p) => withConsole((c) => c.approve(p.application)).pipe(Effect.map(done)),
  ),
  route(
    "POST",
    "/applications/:application/keys",
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.createKey(p.application, b))).pipe(
        Effect.map(created),
      ),
  ),
  route(
    "POST",
    "/accounts/:account/keys",
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.createPartnerKey(p.account, b))).pipe(
        Effect.map(created),
      ),
  ),
  route(
    "POST",
    "/applications/:application/connected-app-keys",
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.createConnectedAppKey(p.application, b))).pipe(
        Effect.map(created),
      ),
  ),
  route(
    "POST",
    "/accounts/:account/account-tokens",
    (_req, p) => withConsole((c) => c.createAccountToken(p.account)).pipe(Effect.map(created)),
  ),
  route("DELETE", "/keys/:key", (_req, p) => withConsole((c) => c.revokeKey(p.key)).pipe(Effect.map(done))),
  route(
    "PUT",
    "/applications/:application/verify-settings",
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.putVerifySettings(p.application, b))).pipe(
        Effect.map(done),
      ),
  ),
  route(
    "POST",
    "/accounts/:account/sandbox-destinations",
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.addSandboxDestination(p.account, b))).pipe(
        Effect.map(created),
      ),
  ),
  route(
    "POST",
    "/accounts/:account/wallet/credit",
    (req, p) =>
      Effect.flatMap(requireJson(req), (b) => withConsole((c) => c.creditWallet(p.account, b))).pipe(Effect.map(done)),
  ),
]

/** Simulator routes exist only while their simulator is selected. */
export const simulatorRoutes = (settings: Settings): ReadonlyArray<Route<any>> => [
  ...(settings.smsProvider === "simulator"
    ? [route("GET", "/simulator/sms", (req) =>
      Effect.gen(function* () {
        const to = parseSaudiMobile(req.query.get("to") ?? "")
        if (Option.isNone(to)) {
          return yield* new InvalidRequest({
            message: "`to` must be a Saudi mobile number.",
            fields: { to: "invalid" },
          })
        }
        const messages = yield* (yield* SimulatedSmsRepo).listTo(to.value, 100)
        return done(messages.map((m) => ({ id: m.id, to: m.to, text: m.text, sent_at: isoMillis(m.sentAt) })))
      }))]
    : []),
  ...(settings.clock === "simulated"
    ? [route("POST", "/simulator/clock", (req) =>
      Effect.gen(function* () {
        const body = yield* requireJson(req)
        const ms = body.advance_ms
        if (typeof ms !== "number" || !Number.isSafeInteger(ms) || ms < 0) {
          return yield* new InvalidRequest({
            message: "`advance_ms` must be a whole number of at least 0.",
            fields: { advance_ms: "invalid" },
          })
        }
        const { now } = yield* advanceSimulatedClock(ms)
        return done({ now: isoMillis(now), now_ms: now })
      }))]
    : []),
]
