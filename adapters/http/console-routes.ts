/** The console's simulator routes (DECISIONS 2); they exist only while their simulator is selected. */
import { Effect, Option } from "effect"
import { InvalidRequest } from "../../core/errors.ts"
import { parseSaudiMobile } from "../../core/shared/phone.ts"
import { isoMillis } from "../../core/shared/riyadh.ts"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { advanceSimulatedClock } from "../jobs.ts"
import type { Settings } from "../config.ts"
import { consoleData, consoleRoute, requireJson, type Route } from "./operation.ts"

const done = consoleData

const route = consoleRoute

/** The SMS simulator's log (its module is wired only while the simulator is selected). */
export const smsSimulatorRoutes: ReadonlyArray<Route<any>> = [
  route("GET", "/simulator/sms", (req) =>
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
    })),
]

/** The simulated clock's advance: only while the clock is simulated. */
export const clockSimulatorRoutes = (settings: Settings): ReadonlyArray<Route<any>> => [
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
