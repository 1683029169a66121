/** Reminders over the memory store: its table declared beside its repository. */
import { Effect, Layer, Option } from "effect"
import type { Reminder } from "../../core/reminders/model.ts"
import { RemindersRepo } from "../../ports/store/reminders.ts"
import { memoryTables, setIn } from "./db.ts"

export const remindersTables = () => ({ reminders: new Map<string, Reminder>() })

export const RemindersRepoMemory = Layer.effect(
  RemindersRepo,
  Effect.map(memoryTables(remindersTables), (db) => {
    const scheduled = (t: ReturnType<typeof remindersTables>) =>
      [...t.reminders.values()].filter((r) => r.status === "scheduled")
    return {
      insert: (reminder) => db.write((t, record) => setIn(t.reminders, reminder.id, reminder, record)),
      countScheduled: (applicationId) =>
        db.read((t) => scheduled(t).filter((r) => r.applicationId === applicationId).length),
      list: (applicationId) =>
        db.read((t) =>
          [...t.reminders.values()]
            .filter((r) => r.applicationId === applicationId)
            .sort((a, b) => a.createdAt - b.createdAt || a.dueAt - b.dueAt || a.id.localeCompare(b.id))
        ),
      earliestDue: db.read((t) => {
        const due = scheduled(t).map((r) => r.dueAt)
        return due.length === 0 ? Option.none() : Option.some(Math.min(...due))
      }),
      sendDue: (now) =>
        db.write((t, record) => {
          const due = scheduled(t).filter((r) => r.dueAt <= now)
          for (const r of due) setIn(t.reminders, r.id, { ...r, status: "sent" }, record)
          return due.length
        }),
    }
  }),
)
