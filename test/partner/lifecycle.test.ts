/**
 * The lifecycle of a partner's client application (DECISIONS 13, 16) as a pure state machine: every move of
 * the table from every state, and properties over random move sequences.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import * as fc from "effect/FastCheck"
import {
  decide,
  type Lifecycle,
  type LifecycleStatus,
  lifecycleStatuses,
  type Move,
  provisioned,
  type ReasonCode,
  reasonCodes,
  sends,
} from "../../core/partner/lifecycle.ts"

const at = (status: LifecycleStatus, over: Partial<Lifecycle> = {}): Lifecycle => ({
  ...provisioned,
  status,
  ...(status === "rejected" ? { reasonCode: "brand_mismatch", appealable: true } : {}),
  ...(status === "archived" ? { statusBeforeArchive: "active" } : {}),
  ...over,
})

const moves: ReadonlyArray<Move> = [
  { _tag: "Approve" },
  { _tag: "Reject", reasonCode: "brand_mismatch" },
  { _tag: "ChangeBrand", changed: ["website"] },
  { _tag: "ChangeBrand", changed: [] },
  { _tag: "ChangeLogo" },
  { _tag: "Appeal" },
  { _tag: "Disable" },
  { _tag: "Resume" },
  { _tag: "Archive" },
  { _tag: "Restore" },
  { _tag: "Pause" },
  { _tag: "Unpause" },
]

/** What each move does from each status, written from DECISIONS 13 and 16 (not from the code). */
type Expected = { to: LifecycleStatus; event: string } | "no move" | "invalid_state" | "not_appealable"
const table: Record<string, Record<LifecycleStatus, Expected>> = {
  Approve: {
    pending: { to: "active", event: "service.approved" },
    rejected: { to: "active", event: "service.approved" },
    active: "no move",
    suspended: "invalid_state",
    archived: "invalid_state",
  },
  Reject: {
    pending: { to: "rejected", event: "service.rejected" },
    rejected: "invalid_state",
    active: "invalid_state",
    suspended: "invalid_state",
    archived: "invalid_state",
  },
  "ChangeBrand:website": {
    active: { to: "pending", event: "service.review_requested" },
    rejected: { to: "pending", event: "service.review_requested" },
    pending: "no move",
    suspended: "invalid_state",
    archived: "invalid_state",
  },
  "ChangeBrand:": {
    active: "no move",
    rejected: "no move",
    pending: "no move",
    suspended: "invalid_state",
    archived: "invalid_state",
  },
  ChangeLogo: {
    rejected: { to: "pending", event: "service.review_requested" },
    active: "no move",
    pending: "no move",
    suspended: "invalid_state",
    archived: "invalid_state",
  },
  Appeal: {
    rejected: { to: "pending", event: "service.review_requested" },
    active: "not_appealable",
    pending: "not_appealable",
    suspended: "not_appealable",
    archived: "not_appealable",
  },
  Disable: {
    active: { to: "suspended", event: "service.suspended" },
    suspended: "no move",
    pending: "invalid_state",
    rejected: "invalid_state",
    archived: "invalid_state",
  },
  Resume: {
    suspended: { to: "active", event: "service.resumed" },
    active: "no move",
    pending: "invalid_state",
    rejected: "invalid_state",
    archived: "invalid_state",
  },
  Archive: {
    pending: { to: "archived", event: "service.archived" },
    active: { to: "archived", event: "service.archived" },
    rejected: { to: "archived", event: "service.archived" },
    suspended: { to: "archived", event: "service.archived" },
    archived: "no move",
  },
  Restore: {
    archived: { to: "active", event: "service.restored" }, // the state before (here: active)
    pending: "invalid_state",
    active: "invalid_state",
    rejected: "invalid_state",
    suspended: "invalid_state",
  },
}

const keyOf = (m: Move) => (m._tag === "ChangeBrand" ? `ChangeBrand:${m.changed.join(",")}` : m._tag)

describe("DECISIONS 13: every move of the table, from every state", () => {
  for (const move of moves.filter((m) => m._tag !== "Pause" && m._tag !== "Unpause")) {
    for (const status of lifecycleStatuses) {
      const expected = table[keyOf(move)][status]
      const label = typeof expected === "string" ? expected : `${expected.to}, ${expected.event}`
      it(`${keyOf(move)} from ${status}: ${label}`, () => {
        const result = decide(at(status), move, 1_000)
        if (expected === "invalid_state" || expected === "not_appealable") {
          expect(Either.isLeft(result)).toBe(true)
          expect(Either.getLeft(result).pipe((o) => o._tag === "Some" && o.value._tag)).toBe(
            expected === "invalid_state" ? "InvalidState" : "NotAppealable",
          )
        } else if (expected === "no move") {
          expect(result).toEqual(Either.right({ next: at(status), events: [] }))
        } else {
          const decision = Either.getOrThrow(result)
          expect(decision.next.status).toBe(expected.to)
          expect(decision.events.map((e) => e.event)).toEqual([expected.event])
          expect(decision.events[0].previousStatus).toBe(status)
        }
      })
    }
  }

  it("an appeal of a rejection that is not appealable: 409 not_appealable", () => {
    const final = at("rejected", { reasonCode: "impersonation", appealable: false })
    expect(Either.getLeft(decide(final, { _tag: "Appeal" }, 1))).toEqual(
      Either.getLeft(Either.left({ _tag: "NotAppealable", status: "rejected" })),
    )
  })

  it("reject carries reason_code and appealable; the first four reasons may be appealed", () => {
    for (const reason of reasonCodes) {
      const { events, next } = Either.getOrThrow(decide(at("pending"), { _tag: "Reject", reasonCode: reason }, 1))
      const appealable = ["website_unreachable", "brand_mismatch", "logo_unsuitable", "incomplete_information"]
        .includes(reason)
      expect(events[0].extra).toEqual({ reason_code: reason, appealable })
      expect(next).toMatchObject({ reasonCode: reason, appealable })
    }
  })

  it("review_requested names what changed: name, website, logo or appeal", () => {
    const brand = Either.getOrThrow(decide(at("active"), { _tag: "ChangeBrand", changed: ["name", "website"] }, 1))
    expect(brand.events[0].extra).toEqual({ changed: ["name", "website"] })
    expect(Either.getOrThrow(decide(at("rejected"), { _tag: "ChangeLogo" }, 1)).events[0].extra).toEqual({
      changed: ["logo"],
    })
    expect(Either.getOrThrow(decide(at("rejected"), { _tag: "Appeal" }, 1)).events[0].extra).toEqual({
      changed: ["appeal"],
    })
  })

  it("the guard's pause sits beside the status: pause and unpause flip `paused`, with `paused` in the data", () => {
    for (const status of lifecycleStatuses) {
      const paused = Either.getOrThrow(decide(at(status), { _tag: "Pause" }, 1))
      expect(paused.next).toEqual({ ...at(status), paused: true })
      expect(paused.events).toEqual([{ event: "service.paused", previousStatus: status, extra: { paused: true } }])
      expect(Either.getOrThrow(decide(paused.next, { _tag: "Pause" }, 2)).events).toEqual([])
      const unpaused = Either.getOrThrow(decide(paused.next, { _tag: "Unpause" }, 3))
      expect(unpaused.events.map((e) => e.event)).toEqual(["service.unpaused"])
      expect(Either.getOrThrow(decide(at(status), { _tag: "Unpause" }, 4)).events).toEqual([])
    }
  })
})

const reason = fc.constantFrom<ReasonCode>(...reasonCodes)
const move: fc.Arbitrary<Move> = fc.oneof(
  fc.constant<Move>({ _tag: "Approve" }),
  reason.map((r): Move => ({ _tag: "Reject", reasonCode: r })),
  fc.subarray(["name", "website"] as const).map((changed): Move => ({ _tag: "ChangeBrand", changed })),
  fc.constant<Move>({ _tag: "ChangeLogo" }),
  fc.constant<Move>({ _tag: "Appeal" }),
  fc.constant<Move>({ _tag: "Disable" }),
  fc.constant<Move>({ _tag: "Resume" }),
  fc.constant<Move>({ _tag: "Archive" }),
  fc.constant<Move>({ _tag: "Restore" }),
  fc.constant<Move>({ _tag: "Pause" }),
  fc.constant<Move>({ _tag: "Unpause" }),
  fc.constant<Move>({ _tag: "Edit" }),
)

/** Runs a sequence of moves from provisioning, keeping refused moves out; calls `check` at each step. */
const walk = (
  sequence: ReadonlyArray<Move>,
  check: (from: Lifecycle, m: Move, result: ReturnType<typeof decide>, now: number) => void,
) => {
  let state = provisioned
  sequence.forEach((m, i) => {
    const result = decide(state, m, 1_000 + i)
    check(state, m, result, 1_000 + i)
    if (Either.isRight(result)) state = result.right.next
  })
  return state
}

describe("properties over random move sequences", () => {
  it.prop("a move fires an event exactly when it changes the application, one at most", [
    fc.array(move, { maxLength: 60 }),
  ], ([seq]) => {
    walk(seq, (from, _m, result) => {
      if (Either.isLeft(result)) return
      const changed = JSON.stringify(result.right.next) !== JSON.stringify(from)
      expect(result.right.events.length).toBe(changed ? 1 : 0)
      for (const e of result.right.events) expect(e.previousStatus).toBe(from.status)
    })
  })

  it.prop("an Edit (external_id, settings, unchanged brand values) is never refused and moves nothing", [
    fc.array(move, { maxLength: 60 }),
  ], ([seq]) => {
    const state = walk(seq, () => {})
    expect(decide(state, { _tag: "Edit" }, 99_999)).toEqual(Either.right({ next: state, events: [] }))
  })

  it.prop("a refused move is invalid_state or not_appealable and leaves the application as it was", [
    fc.array(move, { maxLength: 60 }),
  ], ([seq]) => {
    walk(seq, (from, m, result) => {
      if (Either.isRight(result)) return
      expect(result.left.status).toBe(from.status)
      // DECISIONS 18: a brand or logo change of a final rejection is refused as an appeal is.
      const asAppeal = m._tag === "Appeal" ||
        ((m._tag === "ChangeBrand" || m._tag === "ChangeLogo") && from.status === "rejected" && !from.appealable)
      expect(result.left._tag).toBe(asAppeal ? "NotAppealable" : "InvalidState")
    })
  })

  it.prop(
    "archive then restore returns to the state before, paused flag and all",
    [fc.array(move, { maxLength: 40 })],
    ([seq]) => {
      const before = walk(seq, () => {})
      if (before.status === "archived") return
      const archived = Either.getOrThrow(decide(before, { _tag: "Archive" }, 9_000)).next
      const restored = Either.getOrThrow(decide(archived, { _tag: "Restore" }, 9_001)).next
      expect(restored).toEqual(before)
    },
  )

  it.prop(
    "approved_at is set by an approval, withdrawn by a rejection, and otherwise never changes",
    [fc.array(move, { maxLength: 60 })],
    ([seq]) => {
      walk(seq, (from, m, result, now) => {
        if (Either.isLeft(result)) return
        const next = result.right.next
        if (m._tag === "Reject") expect(next.approvedAt).toBeNull()
        else if (from.approvedAt !== null) expect(next.approvedAt).toBe(from.approvedAt)
        else if (m._tag === "Approve" && next.status === "active") expect(next.approvedAt).toBe(now)
        else expect(next.approvedAt).toBeNull()
      })
    },
  )

  it.prop("codes go out only while active, or pending under re-review after an approval", [
    fc.array(move, { maxLength: 60 }),
  ], ([seq]) => {
    walk(seq, (_from, _m, result) => {
      if (Either.isLeft(result)) return
      const l = result.right.next
      expect(sends(l)).toBe(l.status === "active" || (l.status === "pending" && l.approvedAt !== null))
      // A rejection's reason is kept only while rejected (or archived from rejected).
      if (l.status !== "rejected" && l.status !== "archived") expect(l.reasonCode).toBeNull()
    })
  })
})

describe('DECISIONS 18: "A pending application sends only while it is under re-review of an approved brand: it came to pending from active"', () => {
  it("active → pending by a brand change sends; rejected → pending by a change, a logo or an appeal does not", () => {
    const approved = Either.getOrThrow(decide(provisioned, { _tag: "Approve" }, 1)).next
    const review = Either.getOrThrow(decide(approved, { _tag: "ChangeBrand", changed: ["name"] }, 2)).next
    expect(review).toMatchObject({ status: "pending", approvedAt: 1 })
    expect(sends(review)).toBe(true)
    const rejected = Either.getOrThrow(decide(review, { _tag: "Reject", reasonCode: "brand_mismatch" }, 3)).next
    expect(rejected).toMatchObject({ status: "rejected", approvedAt: null })
    for (
      const m of [{ _tag: "ChangeBrand", changed: ["website"] }, { _tag: "ChangeLogo" }, { _tag: "Appeal" }] as const
    ) {
      const back = Either.getOrThrow(decide(rejected, m, 4)).next
      expect(back.status, m._tag).toBe("pending")
      expect(sends(back), m._tag).toBe(false)
    }
    // Until the console approves it again.
    const again = Either.getOrThrow(decide(rejected, { _tag: "Approve" }, 5)).next
    expect(again).toMatchObject({ status: "active", approvedAt: 5 })
    expect(sends(again)).toBe(true)
  })

  it.prop(
    "over any sequence, a pending sends exactly when it came to pending from active (archive and restore between)",
    [
      // From provisioning, or from a re-review of an approved brand that the console rejected.
      fc.constantFrom<ReadonlyArray<Move>>([], [
        { _tag: "Approve" },
        { _tag: "ChangeBrand", changed: ["name"] },
        { _tag: "Reject", reasonCode: "brand_mismatch" },
      ]),
      fc.array(move, { maxLength: 60, size: "max" }),
    ],
    ([prefix, rest]) => {
      let fromActive = false
      walk([...prefix, ...rest], (from, _m, result) => {
        if (Either.isLeft(result)) return
        const next = result.right.next
        if (next.status === "pending" && from.status !== "pending" && from.status !== "archived") {
          fromActive = from.status === "active"
        }
        expect(sends(next)).toBe(next.status === "active" || (next.status === "pending" && fromActive))
      })
    },
  )
})

describe('DECISIONS 18: "On a rejection with appealable: false, brand changes and a logo set or removed answer 409 not_appealable, as an appeal does, and change nothing"', () => {
  for (const reasonCode of ["prohibited_business", "impersonation", "duplicate_application"] as const) {
    it(`rejected for ${reasonCode}: a name or website change, a logo, an appeal are NotAppealable; unchanged values and edits are no move`, () => {
      const final = at("rejected", { reasonCode, appealable: false })
      for (
        const m of [
          { _tag: "ChangeBrand", changed: ["name"] },
          { _tag: "ChangeBrand", changed: ["website"] },
          { _tag: "ChangeBrand", changed: ["name", "website"] },
          { _tag: "ChangeLogo" },
          { _tag: "Appeal" },
        ] as const
      ) {
        expect(decide(final, m, 1), JSON.stringify(m)).toEqual(
          Either.left({ _tag: "NotAppealable", status: "rejected" }),
        )
      }
      for (const m of [{ _tag: "ChangeBrand", changed: [] }, { _tag: "Edit" }] as const) {
        expect(decide(final, m, 1)).toEqual(Either.right({ next: final, events: [] }))
      }
      // The console may still approve it, or archive it.
      expect(Either.getOrThrow(decide(final, { _tag: "Approve" }, 1)).next.status).toBe("active")
      expect(Either.getOrThrow(decide(final, { _tag: "Archive" }, 1)).next.status).toBe("archived")
    })
  }
})
