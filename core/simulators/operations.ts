/**
 * The simulators' console operations (DECISIONS 2 and 16), each declared once: the SMS simulator's log and
 * the simulated clock's advance. Each is served only while its simulator is selected.
 */
import { Effect, Either, Option, Schema } from "effect"
import { ClockSimulator } from "../../ports/clock-simulator.ts"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { InvalidRequest } from "../errors.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { parseSaudiMobile } from "../shared/phone.ts"
import { isoMillis } from "../shared/riyadh.ts"

const console = { _tag: "Console" } as const
const done = { status: 200, envelope: "data" } as const

export const smsSimulatorOperations = [
  operation({
    name: "console.simulator.sms.list",
    summary: "The texts the SMS simulator sent to a number, newest first (at most 100).",
    method: "GET",
    path: "/console/v1/simulator/sms",
    caller: console,
    answer: done,
    parameters: [{
      name: "to",
      in: "query",
      description: "A Saudi mobile number, in any accepted form",
      schema: Schema.String,
      required: true,
    }],
    body: undefined,
    decode: ({ query }) => {
      const to = parseSaudiMobile(query.get("to") ?? "")
      return Option.isSome(to) ? Either.right(to.value) : Either.left(
        new InvalidRequest({ message: "`to` must be a Saudi mobile number.", fields: { to: "invalid" } }),
      )
    },
    output: Schema.Array(
      Schema.Struct({ id: Schema.String, to: Schema.String, text: Schema.String, sent_at: Schema.String }),
    ),
    errors: [InvalidRequest],
    idempotent: false,
    service: SimulatedSmsRepo,
    run: (log, _, to) =>
      Effect.map(
        log.listTo(to, 100),
        (messages) => messages.map((m) => ({ id: m.id, to: m.to, text: m.text, sent_at: isoMillis(m.sentAt) })),
      ),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

export const clockSimulatorOperations = [
  operation({
    name: "console.simulator.clock.advance",
    summary: "Moves the simulated clock forward, running every job that falls due on the way.",
    method: "POST",
    path: "/console/v1/simulator/clock",
    caller: console,
    answer: done,
    parameters: [],
    body: Schema.Struct({ advance_ms: Schema.Int.pipe(Schema.nonNegative()) }),
    decode: ({ body }) => {
      const ms = body?.advance_ms
      return typeof ms === "number" && Number.isSafeInteger(ms) && ms >= 0 ? Either.right(ms) : Either.left(
        new InvalidRequest({
          message: "`advance_ms` must be a whole number of at least 0.",
          fields: { advance_ms: "invalid" },
        }),
      )
    },
    output: Schema.Struct({ now: Schema.String, now_ms: Schema.Number }),
    errors: [InvalidRequest],
    idempotent: false,
    service: ClockSimulator,
    run: (clock, _, ms: number) => Effect.map(clock.advance(ms), ({ now }) => ({ now: isoMillis(now), now_ms: now })),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
