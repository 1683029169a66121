/** Approvals and approval policies in memory (the approvals product's tables). */
import { Effect, Layer, Option } from "effect"
import type { Approval } from "../../core/approvals/model.ts"
import { ApprovalsRepo } from "../../ports/store/approvals.ts"
import { memoryTables, setIn, violation } from "./db.ts"

export const approvalTables = () => ({
  approvals: new Map<string, Approval>(),
  approvalPolicies: new Map<string, ReadonlyArray<string>>(),
})

export const ApprovalsRepoMemory = Layer.effect(
  ApprovalsRepo,
  Effect.map(memoryTables(approvalTables), (db) => ({
    insert: (a) =>
      db.write((t, record) => {
        if (t.approvals.has(a.id)) violation(`duplicate approval ${a.id}`)
        setIn(t.approvals, a.id, a, record)
      }),
    get: (id) => db.read((t) => Option.fromNullable(t.approvals.get(id))),
    matching: (accountId, operation, inputKey) =>
      db.read((t) =>
        [...t.approvals.values()]
          .filter((a) => a.accountId === accountId && a.operation === operation && a.inputKey === inputKey)
          // Newest first; at one instant, the one made later first (insertion order, as `seq` in SQL).
          .reverse()
          .sort((x, y) => y.createdAt - x.createdAt)
      ),
    decide: (id, status, at, note) =>
      db.write((t, record) => {
        const a = t.approvals.get(id)
        if (a === undefined || a.status !== "pending" || a.expiresAt <= at) return Option.none()
        const decided: Approval = { ...a, status, decidedAt: at, note }
        setIn(t.approvals, id, decided, record)
        return Option.some(decided)
      }),
    use: (id, at) =>
      db.write((t, record) => {
        const a = t.approvals.get(id)
        if (a === undefined || a.status !== "approved" || a.expiresAt <= at) return false
        setIn(t.approvals, id, { ...a, status: "used" }, record)
        return true
      }),
    release: (id) =>
      db.write((t, record) => {
        const a = t.approvals.get(id)
        if (a !== undefined && a.status === "used") setIn(t.approvals, id, { ...a, status: "approved" }, record)
      }),
    policy: (accountId) => db.read((t) => Option.fromNullable(t.approvalPolicies.get(accountId))),
    setPolicy: (accountId, operations) =>
      db.write((t, record) => setIn(t.approvalPolicies, accountId, operations, record)),
    pending: (at, limit) =>
      db.read((t) =>
        [...t.approvals.values()]
          .filter((a) => a.status === "pending" && a.expiresAt > at)
          .reverse()
          .sort((x, y) => y.createdAt - x.createdAt)
          .slice(0, limit)
      ),
  })),
)
