import { Effect, Layer } from "effect"
import { type OutboxEvent, OutboxRepo } from "../../ports/store/outbox.ts"
import { addTo, memoryTables, pushTo, type Recorder, violation } from "./db.ts"

export const outboxTables = () => ({
  outbox: [] as Array<OutboxEvent>,
  outboxIds: new Set<string>(),
})

/** Appends all of `events` or none, like the SQL adapter's single INSERT (also used inside other writes). */
export const appendEvents = (
  t: ReturnType<typeof outboxTables>,
  events: ReadonlyArray<OutboxEvent>,
  record: Recorder,
): void => {
  const ids = new Set(events.map((e) => e.id))
  if (ids.size !== events.length || events.some((e) => t.outboxIds.has(e.id))) {
    violation("duplicate outbox event id")
  }
  for (const e of events) {
    addTo(t.outboxIds, e.id, record)
    pushTo(t.outbox, e, record)
  }
}

export const OutboxRepoMemory = Layer.effect(
  OutboxRepo,
  Effect.map(memoryTables(outboxTables), (db) => ({
    append: (events) => db.write((t, record) => appendEvents(t, events, record)),
    // Newest first; among equal times the last appended first.
    listRecent: (limit) =>
      db.read((t) => {
        const newestFirst: Array<OutboxEvent> = t.outbox.slice().reverse()
        return newestFirst.sort((a, b) => b.createdAt - a.createdAt).slice(0, limit)
      }),
  })),
)
