/**
 * The verification state machine (spec Section 3, DECISIONS 3) as a pure function: no layer, no store.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { AccountId, ApplicationId, SaudiMobile, VerificationId } from "../../../core/shared/brands.ts"
import { type Command, decide, type VerificationEvent } from "../../../core/verify/machine.ts"
import type { Verification, VerificationStatus } from "../../../core/verify/model.ts"

const T0 = 1_767_225_600_000 // 2026-01-01T00:00:00Z
const minute = 60_000
const lifetime = 10 * minute

const pending = (over: Partial<Verification> = {}): Verification => ({
  id: "0b7c5a52-8a54-4f59-9d2c-4c1f1c0e9a01" as VerificationId,
  applicationId: "6a1f2f0e-2f4b-4d8e-8f1a-2b3c4d5e6f70" as ApplicationId,
  accountId: "9d8c7b6a-5f4e-4d3c-8b2a-1a0f9e8d7c6b" as AccountId,
  to: "+966551234567" as SaudiMobile,
  channel: "sms",
  reference: null,
  clientIp: null,
  mode: "live",
  status: "pending",
  attempts: 0,
  maxAttempts: 3,
  resends: 0,
  codeHash: "hash-0",
  expiresAt: T0 + lifetime,
  verifiedAt: null,
  createdAt: T0,
  updatedAt: T0,
  ...over,
})

const right: Command = { _tag: "Check", matches: true }
const wrong: Command = { _tag: "Check", matches: false }
const read: Command = { _tag: "Read" }
const cancel: Command = { _tag: "Cancel" }
const sweep: Command = { _tag: "Sweep" }
const resend = (codeHash = "hash-new", lifetimeMs = lifetime): Command => ({ _tag: "Resend", codeHash, lifetimeMs })

const terminals: ReadonlyArray<VerificationStatus> = ["verified", "failed", "expired", "canceled"]
const terminal = (status: VerificationStatus) =>
  pending({ status, attempts: 1, verifiedAt: status === "verified" ? T0 + minute : null })

describe("check, code matches: active -> verified; `verification.verified` fires once", () => {
  it("a matching code answers verified, counts the attempt, stamps verified_at and fires verification.verified", () => {
    const d = decide(pending(), right, T0 + minute)
    expect(d.next).toMatchObject({ status: "verified", attempts: 1, verifiedAt: T0 + minute })
    expect(d.events).toEqual(["verification.verified"])
    expect(d.refusal).toBeUndefined()
  })

  it("a later check answers verified again with no second event, whether the code matches or not", () => {
    const verified = decide(pending(), right, T0 + minute).next
    for (const command of [right, wrong]) {
      const again = decide(verified, command, T0 + 2 * minute)
      expect(again.next).toBe(verified)
      expect(again.events).toEqual([])
    }
  })

  it("a code that matches after wrong ones still verifies while attempts are left", () => {
    const once = decide(pending(), wrong, T0 + 1).next
    const d = decide(once, right, T0 + 2)
    expect(d.next).toMatchObject({ status: "verified", attempts: 2 })
    expect(d.events).toEqual(["verification.verified"])
  })
})

describe("check, wrong code with attempts left: answers pending with `attempts` counted", () => {
  it("a wrong code stays pending and counts one attempt, firing nothing", () => {
    const d = decide(pending({ maxAttempts: 3 }), wrong, T0 + 1)
    expect(d.next).toMatchObject({ status: "pending", attempts: 1, verifiedAt: null })
    expect(d.events).toEqual([])
    const d2 = decide(d.next, wrong, T0 + 2)
    expect(d2.next).toMatchObject({ status: "pending", attempts: 2 })
    expect(d2.events).toEqual([])
  })
})

describe("check, the wrong code that uses the last attempt: -> failed; `verification.failed` fires", () => {
  it.each([1, 2, 3, 4, 5])(
    "with max_attempts %i, wrong code number max_attempts fails and no earlier one does",
    (max) => {
      let v = pending({ maxAttempts: max })
      for (let i = 1; i < max; i++) {
        const d = decide(v, wrong, T0 + i)
        expect(d.next.status).toBe("pending")
        expect(d.events).toEqual([])
        v = d.next
      }
      const last = decide(v, wrong, T0 + max)
      expect(last.next).toMatchObject({ status: "failed", attempts: max })
      expect(last.events).toEqual(["verification.failed"])
    },
  )

  it("after failing, the right code can no longer verify", () => {
    const failed = decide(pending({ maxAttempts: 1 }), wrong, T0 + 1).next
    const d = decide(failed, right, T0 + 2)
    expect(d.next).toBe(failed)
    expect(d.events).toEqual([])
  })
})

describe("checking a terminal verification answers its status unchanged and counts nothing", () => {
  it.each(terminals)("%s: a right or wrong code changes nothing and fires nothing", (status) => {
    const v = terminal(status)
    for (const command of [right, wrong]) {
      const d = decide(v, command, T0 + 20 * minute)
      expect(d.next).toBe(v)
      expect(d.events).toEqual([])
      expect(d.refusal).toBeUndefined()
    }
  })
})

describe("expires_at reached: check, read, cancel, resend and the sweep find expiry at once; `verification.expired` fires", () => {
  const at = T0 + lifetime

  it("one millisecond before expires_at the code still verifies", () => {
    expect(decide(pending(), right, at - 1).next.status).toBe("verified")
  })

  it("check (even with the right code) answers expired, counts nothing and fires verification.expired", () => {
    for (const command of [right, wrong]) {
      const d = decide(pending({ attempts: 1 }), command, at)
      expect(d.next).toMatchObject({ status: "expired", attempts: 1, verifiedAt: null })
      expect(d.events).toEqual(["verification.expired"])
      expect(d.refusal).toBeUndefined()
    }
  })

  it("read answers expired and fires verification.expired", () => {
    const d = decide(pending(), read, at + minute)
    expect(d.next.status).toBe("expired")
    expect(d.events).toEqual(["verification.expired"])
  })

  it("the sweep expires it and fires verification.expired", () => {
    const d = decide(pending(), sweep, at + 5 * minute)
    expect(d.next.status).toBe("expired")
    expect(d.events).toEqual(["verification.expired"])
  })

  it("resend: the verification expires (event fired) and the resend answers not_resendable with status expired", () => {
    const d = decide(pending(), resend(), at)
    expect(d.next).toMatchObject({ status: "expired", resends: 0, codeHash: "hash-0" })
    expect(d.events).toEqual(["verification.expired"])
    expect(d.refusal?._tag).toBe("not_resendable")
    expect(d.refusal).toMatchObject({ status: "expired" })
  })

  it("cancel: the verification expires (event fired) and the cancel answers not_cancelable with status expired", () => {
    const d = decide(pending(), cancel, at)
    expect(d.next.status).toBe("expired")
    expect(d.events).toEqual(["verification.expired"])
    expect(d.refusal?._tag).toBe("not_cancelable")
    expect(d.refusal).toMatchObject({ status: "expired" })
  })

  it("once expired, nothing fires verification.expired again", () => {
    const expired = decide(pending(), read, at).next
    for (const command of [right, wrong, read, sweep, cancel, resend()]) {
      expect(decide(expired, command, at + 30 * minute).events).toEqual([])
    }
  })
})

describe("read and the sweep leave an unexpired verification unchanged", () => {
  it("read and sweep before expires_at change nothing", () => {
    const v = pending()
    for (const command of [read, sweep]) {
      const d = decide(v, command, T0 + minute)
      expect(d.next).toBe(v)
      expect(d.events).toEqual([])
    }
  })
})

describe("cancel of an active verification: -> canceled; no event", () => {
  it("cancel moves pending to canceled and fires nothing", () => {
    const d = decide(pending({ attempts: 2 }), cancel, T0 + minute)
    expect(d.next).toMatchObject({ status: "canceled", attempts: 2 })
    expect(d.events).toEqual([])
    expect(d.refusal).toBeUndefined()
  })

  it("a canceled code can no longer verify", () => {
    const canceled = decide(pending(), cancel, T0 + 1).next
    expect(decide(canceled, right, T0 + 2).next.status).toBe("canceled")
  })
})

describe("resend and cancel of a terminal verification: 409 not_resendable / not_cancelable with the current status", () => {
  it.each(terminals)("%s: resend is refused with that status and nothing changes", (status) => {
    const v = terminal(status)
    const d = decide(v, resend(), T0 + minute)
    expect(d.refusal?._tag).toBe("not_resendable")
    expect(d.refusal).toMatchObject({ status })
    expect(d.next).toBe(v)
    expect(d.events).toEqual([])
  })

  it.each(terminals)("%s: cancel is refused with that status and nothing changes", (status) => {
    const v = terminal(status)
    const d = decide(v, cancel, T0 + minute)
    expect(d.refusal?._tag).toBe("not_cancelable")
    expect(d.refusal).toMatchObject({ status })
    expect(d.next).toBe(v)
    expect(d.events).toEqual([])
  })
})

describe("resend of an active verification: fewer than 3 resends used -> active; else 429 resend_limit_reached", () => {
  it("three resends are accepted; the fourth answers resend_limit_reached and changes nothing", () => {
    let v = pending()
    for (let i = 1; i <= 3; i++) {
      const d = decide(v, resend(`hash-${i}`), T0 + i)
      expect(d.refusal).toBeUndefined()
      expect(d.next).toMatchObject({ status: "pending", resends: i, codeHash: `hash-${i}` })
      expect(d.events).toEqual([])
      v = d.next
    }
    const fourth = decide(v, resend("hash-4"), T0 + 4)
    expect(fourth.refusal?._tag).toBe("resend_limit_reached")
    expect(fourth.next).toBe(v)
    expect(fourth.events).toEqual([])
  })
})

describe("resend restarts expires_at, keeps attempts and replaces the code", () => {
  it("expires_at becomes now + lifetime; attempts stay; the new code hash replaces the old one", () => {
    const v = decide(pending({ maxAttempts: 3 }), wrong, T0 + minute).next
    const at = T0 + 9 * minute
    const d = decide(v, resend("hash-new", 4 * minute), at)
    expect(d.next).toMatchObject({ status: "pending", attempts: 1, expiresAt: at + 4 * minute, codeHash: "hash-new" })
  })

  it("a resend just before expiry keeps the verification alive past the old expires_at", () => {
    const v = decide(pending(), resend("hash-new"), T0 + lifetime - 1).next
    expect(decide(v, right, T0 + lifetime + minute).next.status).toBe("verified")
  })
})

// ---------------------------------------------------------------------------------------------------
// Invariants over random command sequences with random time steps

type Step = { readonly dt: number; readonly command: Command }

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.boolean().map((matches): Command => ({ _tag: "Check", matches })), weight: 5 },
  { arbitrary: fc.constant<Command>(read), weight: 1 },
  { arbitrary: fc.constant<Command>(sweep), weight: 1 },
  { arbitrary: fc.constant<Command>(cancel), weight: 1 },
  {
    arbitrary: fc.integer({ min: 1, max: 15 }).map((m): Command => ({
      _tag: "Resend",
      codeHash: "",
      lifetimeMs: m * minute,
    })),
    weight: 2,
  },
)

const stepArb: fc.Arbitrary<Step> = fc.record({
  dt: fc.oneof(fc.integer({ min: 0, max: 2 * minute }), fc.integer({ min: 0, max: 20 * minute })),
  command: commandArb,
})

const scenarioArb = fc.record({
  maxAttempts: fc.integer({ min: 1, max: 5 }),
  lifetimeMinutes: fc.integer({ min: 1, max: 15 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 40 }),
})

interface Trace {
  readonly states: ReadonlyArray<Verification>
  readonly events: ReadonlyArray<VerificationEvent>
  readonly perStep: ReadonlyArray<
    {
      before: Verification
      command: Command
      now: number
      next: Verification
      events: ReadonlyArray<VerificationEvent>
      refused: boolean
    }
  >
}

const runScenario = (s: typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never): Trace => {
  let v = pending({ maxAttempts: s.maxAttempts, expiresAt: T0 + s.lifetimeMinutes * minute })
  let now = T0
  const states = [v]
  const events: Array<VerificationEvent> = []
  const perStep: Array<Trace["perStep"][number]> = []
  s.steps.forEach((step, i) => {
    now += step.dt
    const command = step.command._tag === "Resend" ? { ...step.command, codeHash: `hash-${i + 1}` } : step.command
    const d = decide(v, command, now)
    perStep.push({ before: v, command, now, next: d.next, events: d.events, refused: d.refusal !== undefined })
    events.push(...d.events)
    v = d.next
    states.push(v)
  })
  return { states, events, perStep }
}

const isTerminalStatus = (s: VerificationStatus) => s !== "pending"

describe("invariants over random command sequences with random time steps", () => {
  it.prop("at most one verification.verified event per verification", [scenarioArb], ([s]) => {
    expect(runScenario(s).events.filter((e) => e === "verification.verified").length).toBeLessThanOrEqual(1)
  }, { fastCheck: { numRuns: 500 } })

  it.prop("attempts never exceed max_attempts, and never go down", [scenarioArb], ([s]) => {
    const { perStep } = runScenario(s)
    for (const { before, next } of perStep) {
      expect(next.attempts).toBeLessThanOrEqual(next.maxAttempts)
      expect(next.attempts).toBeGreaterThanOrEqual(before.attempts)
    }
  }, { fastCheck: { numRuns: 500 } })

  it.prop(
    "no move out of a terminal state: the verification stays exactly as it was and nothing fires",
    [scenarioArb],
    ([s]) => {
      for (const { before, events, next } of runScenario(s).perStep) {
        if (!isTerminalStatus(before.status)) continue
        expect(next).toEqual(before)
        expect(events).toEqual([])
      }
    },
    { fastCheck: { numRuns: 500 } },
  )

  it.prop(
    "the terminal event fires at most once in total, and it names the final status (canceled: none)",
    [scenarioArb],
    ([s]) => {
      const { events, states } = runScenario(s)
      const final = states[states.length - 1].status
      expect(events.length).toBeLessThanOrEqual(1)
      if (final === "pending" || final === "canceled") expect(events).toEqual([])
      else expect(events).toEqual([`verification.${final}`])
    },
    { fastCheck: { numRuns: 500 } },
  )

  it.prop(
    "at most 3 resends; every accepted resend restarts expires_at and replaces the code",
    [scenarioArb],
    ([s]) => {
      for (const { before, command, next, now, refused } of runScenario(s).perStep) {
        expect(next.resends).toBeLessThanOrEqual(3)
        if (command._tag !== "Resend" || refused) {
          expect(next.codeHash).toBe(before.codeHash)
          expect(next.expiresAt).toBe(before.expiresAt)
          continue
        }
        expect(next.resends).toBe(before.resends + 1)
        expect(next.expiresAt).toBe(now + command.lifetimeMs)
        expect(next.codeHash).toBe(command.codeHash)
        expect(next.attempts).toBe(before.attempts)
      }
    },
    { fastCheck: { numRuns: 500 } },
  )

  it.prop(
    "expiry is found at once: no command leaves a verification pending once expires_at is reached",
    [scenarioArb],
    ([s]) => {
      for (const { before, now, next } of runScenario(s).perStep) {
        if (before.status === "pending" && now >= before.expiresAt) {
          expect(next.status).toBe("expired")
          expect(next.attempts).toBe(before.attempts)
        }
      }
    },
    { fastCheck: { numRuns: 500 } },
  )

  it.prop("attempts count exactly the checks made while pending and unexpired", [scenarioArb], ([s]) => {
    const { perStep, states } = runScenario(s)
    const counted = perStep.filter(({ before, command, now }) =>
      command._tag === "Check" && before.status === "pending" && now < before.expiresAt
    ).length
    expect(states[states.length - 1].attempts).toBe(counted)
  }, { fastCheck: { numRuns: 500 } })

  it.prop(
    "only resend and cancel are ever refused, and refusals fire nothing but a found expiry",
    [scenarioArb],
    ([s]) => {
      for (const { before, command, events, now, refused } of runScenario(s).perStep) {
        if (!refused) continue
        expect(["Resend", "Cancel"]).toContain(command._tag)
        const foundExpiry = before.status === "pending" && now >= before.expiresAt
        expect(events).toEqual(foundExpiry ? ["verification.expired"] : [])
      }
    },
    { fastCheck: { numRuns: 500 } },
  )
})
