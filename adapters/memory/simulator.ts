import { Effect, Layer } from "effect"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { addTo, MemoryDb, pushUnder, violation } from "./db.ts"

export const SimulatedSmsRepoMemory = Layer.effect(
  SimulatedSmsRepo,
  Effect.map(MemoryDb, (db) => ({
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
