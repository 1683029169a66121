/**
 * Verify's retention over the memory tables of adapters/memory/verify.ts (read through `verifyTables`, never
 * changed there): sends, verifications and the guard's minutes. The memory store keeps no cap or spend counters
 * (it counts its sends), so those prunes have nothing to do. Each call is one write of at most `limit` rows.
 */
import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import type { Verification } from "../../core/verify/model.ts"
import { VerifyRetentionRepo } from "../../ports/store/verify-retention.ts"
import { deleteIn, memoryTables } from "./db.ts"
import { verifyTables } from "./verify.ts"

/** A verification retention may drop one day: terminal, live or partner (sandbox ones count toward a cap). */
const droppable = (v: Verification) => v.status !== "pending" && v.mode !== "test" && v.mode !== "partner_test"

const none = () => Effect.succeed(0)

export const VerifyRetentionRepoMemory = Layer.effect(
  VerifyRetentionRepo,
  Effect.map(memoryTables(verifyTables), (db) => ({
    // Each application's sends are in the order they were made: a batch drops old ones from the front, as the
    // SQL store drops them in id order.
    pruneSends: (before, limit) =>
      db.write((t, record) => {
        let n = 0
        for (const sends of t.sendsByApplication.values()) {
          let k = 0
          while (k < sends.length && n + k < limit && sends[k].sentAt < before) k++
          if (k === 0) continue
          const removed = sends.splice(0, k)
          record(() => sends.unshift(...removed))
          n += k
          if (n === limit) break
        }
        return n
      }),
    pruneVerifications: (createdBefore, verifiedBefore, limit) =>
      db.write((t, record) => {
        let n = 0
        for (const v of [...t.verifications.values()]) {
          if (n === limit) break
          if (droppable(v) && v.createdAt < createdBefore && (v.verifiedAt ?? 0) < verifiedBefore) {
            deleteIn(t.verifications, v.id, record)
            n++
          }
        }
        return n
      }),
    pruneDestinationCounters: none,
    pruneClientIpCounters: none,
    pruneSpendDays: none,
    pruneGuardMinutes: (before, limit) =>
      db.write((t, record) => {
        let n = 0
        for (const minutes of t.guardMinutes.values()) {
          for (const [key, m] of minutes) {
            if (n === limit) return n
            if (m.minute < before) {
              deleteIn(minutes, key, record)
              n++
            }
          }
        }
        return n
      }),
    oldest: db.read((t) => {
      let send: number | undefined
      for (const sends of t.sendsByApplication.values()) {
        if (sends.length > 0 && (send === undefined || sends[0].sentAt < send)) send = sends[0].sentAt
      }
      let verification: number | undefined
      for (const v of t.verifications.values()) {
        if (droppable(v) && (verification === undefined || v.createdAt < verification)) verification = v.createdAt
      }
      let guardMinute: number | undefined
      for (const minutes of t.guardMinutes.values()) {
        for (const m of minutes.values()) {
          if (guardMinute === undefined || m.minute < guardMinute) guardMinute = m.minute
        }
      }
      return {
        send: Option.fromNullable(send as Millis | undefined),
        verification: Option.fromNullable(verification as Millis | undefined),
        capCounter: Option.none(),
        spendDay: Option.none(),
        guardMinute: Option.fromNullable(guardMinute as Millis | undefined),
      }
    }),
  })),
)
