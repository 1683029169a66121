/**
 * A chat-app message's status machine (DECISIONS 7.3, 17; platform-api.md "Chat-app message"):
 * core/notifications/status.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { MessageError, MessageStatus, ReportStatus } from "../../core/notifications/model.ts"
import { applyReport, followWindowMs } from "../../core/notifications/status.ts"

const created_at = Date.parse("2026-11-01T10:00:00.000Z")
const soon = created_at + 60_000
const report = (status: ReportStatus, error: MessageError | null = null) => ({ status, error })
const at = (status: MessageStatus) => ({ status, created_at })
const boom: MessageError = { code: "131026", message: "Message undeliverable." }

describe("statuses move forward only: accepted < sent < delivered < read", () => {
  it.each(
    [
      ["accepted", "sent"],
      ["accepted", "delivered"],
      ["accepted", "read"],
      ["sent", "delivered"],
      ["sent", "read"],
      ["delivered", "read"],
    ] as const,
  )("%s + %s → %s, firing only that state's event, error null", (from, to) => {
    expect(applyReport(at(from), report(to), soon)).toEqual({ status: to, error: null, event: `message.${to}` })
  })

  it.each(
    [
      ["sent", "sent"],
      ["delivered", "sent"],
      ["delivered", "delivered"],
      ["read", "sent"],
      ["read", "delivered"],
      ["read", "read"],
    ] as const,
  )("a report at or behind the current state changes nothing: %s + %s", (from, to) => {
    expect(applyReport(at(from), report(to), soon)).toBe("unchanged")
  })

  it("a non-failed report's error is dropped: error stays null", () => {
    expect(applyReport(at("accepted"), report("delivered", boom), soon)).toEqual({
      status: "delivered",
      error: null,
      event: "message.delivered",
    })
  })
})

describe("`failed` from any non-final state sets `error`", () => {
  it.each(["accepted", "sent", "delivered"] as const)("%s + failed → failed, message.failed", (from) => {
    expect(applyReport(at(from), report("failed", boom), soon)).toEqual({
      status: "failed",
      error: boom,
      event: "message.failed",
    })
  })

  it('DECISIONS 17: a `failed` report without error sets { code: "unknown", message: "No reason given." }', () => {
    expect(applyReport(at("sent"), report("failed"), soon)).toEqual({
      status: "failed",
      error: { code: "unknown", message: "No reason given." },
      event: "message.failed",
    })
  })
})

describe("nothing changes or fires after `read` or `failed`", () => {
  it.each(["sent", "delivered", "read", "failed"] as const)("read + %s, failed + %s", (to) => {
    expect(applyReport(at("read"), report(to, boom), soon)).toBe("unchanged")
    expect(applyReport(at("failed"), report(to, boom), soon)).toBe("unchanged")
  })
})

describe("nothing changes or fires more than 48 h after created_at", () => {
  it("48 h and 1 ms after: unchanged, for every report", () => {
    for (const to of ["sent", "delivered", "read", "failed"] as const) {
      expect(applyReport(at("accepted"), report(to), created_at + 48 * 3600 * 1000 + 1)).toBe("unchanged")
    }
  })

  it("exactly 48 h after still counts (the window is closed at its end)", () => {
    expect(followWindowMs).toBe(172_800_000)
    expect(applyReport(at("accepted"), report("read"), created_at + 48 * 3600 * 1000)).toEqual({
      status: "read",
      error: null,
      event: "message.read",
    })
  })
})

const rank: Record<MessageStatus, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 }
const reportArb = fc.record({
  status: fc.constantFrom<ReportStatus>("sent", "delivered", "read", "failed"),
  error: fc.option(fc.record({ code: fc.string(), message: fc.string() }), { nil: null }),
  // Time since the last report: mostly minutes, sometimes a day or more.
  after: fc.oneof(fc.integer({ min: 0, max: 3_600_000 }), fc.integer({ min: 0, max: 30 * 3_600_000 })),
})

/** Random report sequences run through the machine: each step's state and outcome. */
const run = (reports: ReadonlyArray<{ status: ReportStatus; error: MessageError | null; after: number }>) => {
  let state: { status: MessageStatus; error: MessageError | null } = { status: "accepted", error: null }
  let now = created_at
  return reports.map((r) => {
    now += r.after
    const before = state
    const outcome = applyReport({ status: state.status, created_at }, r, now)
    if (outcome !== "unchanged") state = { status: outcome.status, error: outcome.error }
    return { before, after: state, outcome, now, report: r }
  })
}

describe("random report sequences", () => {
  const sequences = fc.array(reportArb, { maxLength: 12 })

  it.prop("never move backwards", [sequences], ([reports]) => {
    for (const step of run(reports)) expect(rank[step.after.status]).toBeGreaterThanOrEqual(rank[step.before.status])
  })

  it.prop("final states absorb: after read or failed, nothing changes", [sequences], ([reports]) => {
    for (const step of run(reports)) {
      if (step.before.status === "read" || step.before.status === "failed") {
        expect(step.outcome).toBe("unchanged")
        expect(step.after).toBe(step.before)
      }
    }
  })

  it.prop("events fired are strictly increasing in rank, each the event of the state reached", [sequences], ([r]) => {
    const fired = run(r).flatMap((s) => (s.outcome === "unchanged" ? [] : [s.outcome]))
    for (const o of fired) expect(o.event).toBe(`message.${o.status}`)
    const ranks = fired.map((o) => rank[o.status])
    for (let i = 1; i < ranks.length; i++) expect(ranks[i]).toBeGreaterThan(ranks[i - 1])
  })

  it.prop("nothing fires after the 48 h window", [sequences], ([reports]) => {
    for (const step of run(reports)) if (step.now - created_at > followWindowMs) expect(step.outcome).toBe("unchanged")
  })

  it.prop("a change is exactly a report ahead of a non-final state, in the window", [sequences], ([reports]) => {
    for (const step of run(reports)) {
      const moves = step.before.status !== "read" && step.before.status !== "failed" &&
        step.now - created_at <= followWindowMs &&
        (step.report.status === "failed" || rank[step.report.status] > rank[step.before.status])
      expect(step.outcome !== "unchanged").toBe(moves)
      if (step.outcome !== "unchanged") {
        expect(step.outcome.error).toEqual(
          step.report.status === "failed"
            ? step.report.error ?? { code: "unknown", message: "No reason given." }
            : null,
        )
      }
    }
  })
})
