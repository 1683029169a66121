import { Effect, Layer } from "effect"
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
  })),
)
