import { Effect, Layer, Option } from "effect"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { addTo, memoryTables, pushUnder, violation } from "./db.ts"

import type { SimulatedSms } from "../../ports/store/simulator.ts"
/** The SMS simulator's log: memory of its own, wired only while the simulator is selected. */
export const simulatedSmsTables = () => ({
  simSms: new Map<string, Array<SimulatedSms>>(),
  simSmsIds: new Set<string>(),
})

export const SimulatedSmsRepoMemory = Layer.effect(
  SimulatedSmsRepo,
  Effect.map(memoryTables(simulatedSmsTables), (db) => ({
    append: (sms) =>
      db.write((t, record) => {
        if (t.simSmsIds.has(sms.id)) violation(`duplicate simulated sms ${sms.id}`)
        addTo(t.simSmsIds, sms.id, record)
        pushUnder(t.simSms, sms.to, sms, record)
      }),
    // Newest first; among equal times the last appended first.
    listTo: (to, limit) =>
      db.read((t) => (t.simSms.get(to) ?? []).slice().reverse().sort((a, b) => b.sentAt - a.sentAt).slice(0, limit)),
    // Each destination's texts are in the order they were sent: a batch drops old ones from the fronts.
    prune: (before, limit) =>
      db.write((t, record) => {
        let n = 0
        for (const [to, texts] of [...t.simSms]) {
          let k = 0
          while (k < texts.length && n + k < limit && texts[k].sentAt < before) k++
          if (k === 0) continue
          const removed = texts.splice(0, k)
          removed.forEach((sms) => t.simSmsIds.delete(sms.id))
          if (texts.length === 0) t.simSms.delete(to)
          record(() => {
            texts.unshift(...removed)
            t.simSms.set(to, texts)
            removed.forEach((sms) => t.simSmsIds.add(sms.id))
          })
          n += k
          if (n === limit) break
        }
        return n
      }),
    oldest: db.read((t) => {
      let at: number | undefined
      for (const texts of t.simSms.values()) {
        if (texts.length > 0 && (at === undefined || texts[0].sentAt < at)) at = texts[0].sentAt
      }
      return Option.fromNullable(at)
    }),
  })),
)
