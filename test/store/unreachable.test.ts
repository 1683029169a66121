/**
 * Issue 32: which failures are the store out of reach (answered 503 store_unavailable, the jobs backing off) and
 * which stay defects (500 internal_error, logged), and the jobs' backoff while it is down.
 */
import { SqlError } from "@effect/sql/SqlError"
import { Cause, type Duration, Effect, Fiber, type Layer, Logger, Option, TestClock, TestContext } from "effect"
import { describe, expect, it } from "vitest"
import { jobLoop, jobsOf, storeBackoffCapMs, StoreWatch } from "../../adapters/jobs.ts"
import { storeUnreachable } from "../../adapters/sql/unreachable.ts"

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })

describe("storeUnreachable", () => {
  it.each([
    [
      "a refused connection inside SqlError",
      Cause.fail(new SqlError({ cause: refused, message: "Failed to execute" })),
    ],
    ["a refused connection as a defect", Cause.die(new SqlError({ cause: refused }))],
    ["pg's ended connection", Cause.die(new SqlError({ cause: new Error("Connection terminated unexpectedly") }))],
    [
      "PostgreSQL shutting down (57P01)",
      Cause.die(Object.assign(new Error("terminating connection"), { code: "57P01" })),
    ],
    ["a connection exception (08006)", Cause.fail(Object.assign(new Error("connection failure"), { code: "08006" }))],
    ["several addresses refused (AggregateError)", Cause.die(new AggregateError([refused, refused]))],
  ])("%s is the store out of reach", (_, cause) => {
    expect(storeUnreachable(cause)).toBe(true)
  })

  it.each([
    [
      "a unique violation",
      Cause.die(new SqlError({ cause: Object.assign(new Error("duplicate key"), { code: "23505" }) })),
    ],
    ["a bug", Cause.die(new TypeError("x is undefined"))],
    ["an interruption", Cause.interrupt(0 as never)],
    ["the store down beside a bug", Cause.parallel(Cause.die(refused), Cause.die(new TypeError("bug")))],
  ])("%s is not", (_, cause) => {
    expect(storeUnreachable(cause)).toBe(false)
  })
})

describe("StoreWatch: the jobs' backoff", () => {
  const logged: Array<string> = []
  const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logged.push(String(message))))
  const run = (effect: Effect.Effect<void>) => Effect.runPromise(Effect.provide(effect, capture))

  it("one line when the store goes and one when it is back; the wait grows with the time down, 1 s to 30 s", async () => {
    let now = 0
    const watch = new StoreWatch(() => now)
    logged.length = 0
    for (let i = 0; i < 50; i++) await run(watch.unreachable(Cause.die(refused)))
    expect(watch.down).toBe(true)
    expect(watch.backoffMs).toBe(1_000)
    now = 4_000
    expect(watch.backoffMs).toBe(4_000)
    now = 600_000
    expect(watch.backoffMs).toBe(storeBackoffCapMs)
    expect(storeBackoffCapMs).toBe(30_000)
    await run(watch.reachable)
    await run(watch.reachable)
    expect(watch.down).toBe(false)
    expect(watch.backoffMs).toBe(0)
    expect(logged).toHaveLength(2)
    expect(logged[0]).toMatch(/^store unreachable \(connect ECONNREFUSED/)
    expect(logged[1]).toMatch(/^store reachable again after 600 s/)
  })

  it("pause waits the job's period while reachable, the backoff while down", async () => {
    let now = 0
    const watch = new StoreWatch(() => now)
    const paused = (every: Duration.DurationInput) =>
      Effect.runPromise(
        Effect.gen(function* () {
          const fiber = yield* Effect.fork(watch.pause(every))
          yield* TestClock.adjust("300 millis")
          const afterPeriod = fiber.unsafePoll() !== null
          yield* TestClock.adjust("800 millis")
          return { afterPeriod, afterBackoff: fiber.unsafePoll() !== null }
        }).pipe(Effect.provide(TestContext.TestContext)),
      )
    expect(await paused("200 millis")).toEqual({ afterPeriod: true, afterBackoff: true })
    await run(watch.unreachable(Cause.die(refused)))
    now = 500
    expect(await paused("200 millis")).toEqual({ afterPeriod: false, afterBackoff: true })
  })

  it("the shared loop: one line down, one line back, though another job never needs the store", async () => {
    logged.length = 0
    let down = true
    const jobs = jobsOf([Effect.succeed([
      {
        name: "needs-store",
        nextDue: Effect.succeed(Option.none()),
        run: Effect.suspend(() => down ? Effect.die(refused) : Effect.void),
      },
      { name: "no-store", nextDue: Effect.succeed(Option.none()), run: Effect.void },
    ])])
    await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.fork(jobLoop("1 second"))
        for (let i = 0; i < 20; i++) yield* TestClock.adjust("1 second")
        expect(logged).toHaveLength(1)
        down = false
        for (let i = 0; i < 40; i++) yield* TestClock.adjust("1 second")
        yield* Fiber.interrupt(fiber)
      }).pipe(
        Effect.provide(jobs as Layer.Layer<Effect.Effect.Context<ReturnType<typeof jobLoop>>>),
        Effect.provide(capture),
        Effect.provide(TestContext.TestContext),
      ),
    )
    expect(logged).toHaveLength(2)
    expect(logged[0]).toMatch(/^store unreachable/)
    expect(logged[1]).toMatch(/^store reachable again/)
  })
})
