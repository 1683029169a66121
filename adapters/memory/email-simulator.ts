/** Email's simulators in memory (the DNS records the simulated resolver answers, the provider's log), only while selected. */
import { Effect, Layer } from "effect"
import { SimulatedDnsRepo, type SimulatedEmail, SimulatedEmailRepo } from "../../ports/store/email-simulator.ts"
import { deleteIn, memoryTables, pushTo, setIn } from "./db.ts"

export const emailSimulatorTables = () => ({
  /** By `type\0name`; never an empty set (`[]` removes). */
  simDnsRecords: new Map<string, ReadonlyArray<string>>(),
  simEmailSent: [] as Array<SimulatedEmail>,
})

const dnsKey = (type: string, name: string) => `${type}\u0000${name}`

export const SimulatedDnsRepoMemory = Layer.effect(
  SimulatedDnsRepo,
  Effect.map(memoryTables(emailSimulatorTables), (db) => ({
    put: (type, name, values) =>
      db.write((t, record) =>
        values.length === 0
          ? deleteIn(t.simDnsRecords, dnsKey(type, name), record)
          : setIn(t.simDnsRecords, dnsKey(type, name), [...values], record)
      ),
    get: (type, name) => db.read((t) => t.simDnsRecords.get(dnsKey(type, name)) ?? []),
  })),
)

export const SimulatedEmailRepoMemory = Layer.effect(
  SimulatedEmailRepo,
  Effect.map(memoryTables(emailSimulatorTables), (db) => ({
    append: (email) => db.write((t, record) => pushTo(t.simEmailSent, email, record)),
    // Newest first; among equal times the last appended first.
    list: (to, limit) =>
      db.read((t) =>
        t.simEmailSent.filter((m) => to === undefined || m.to === to).reverse().sort((a, b) => b.sentAt - a.sentAt)
          .slice(0, limit)
      ),
  })),
)
