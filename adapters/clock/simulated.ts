/**
 * The simulated platform clock (`CLOCK=simulated`): time moves only when the console advances it.
 * Sleeping still waits real time, so background loops keep their real-time cadence.
 */
import { Clock, Context, Effect, Layer } from "effect"

export class SimulatedTime {
  constructor(public now: number) {}
}

export class SimulatedClock extends Context.Tag("adapters/SimulatedClock")<SimulatedClock, SimulatedTime>() {}

const makeClock = (time: SimulatedTime): Clock.Clock => {
  const real = Clock.make()
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => time.now,
    currentTimeMillis: Effect.sync(() => time.now),
    unsafeCurrentTimeNanos: () => BigInt(time.now) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(time.now) * 1_000_000n),
    sleep: (d) => real.sleep(d),
  }
}

/** Provides the SimulatedClock handle and installs the clock as the runtime's Clock. */
export const simulatedClockLayer = (startAt: number) => {
  const time = new SimulatedTime(startAt)
  return Layer.merge(Layer.succeed(SimulatedClock, time), Layer.setClock(makeClock(time)))
}
