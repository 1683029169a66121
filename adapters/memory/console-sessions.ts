import { Effect, Layer } from "effect"
import { ConsoleSessionsRepo } from "../../ports/store/console-sessions.ts"
import { deleteIn, memoryTables, setIn } from "./db.ts"

/** session id -> until when it is refused. */
export const consoleSessionTables = () => ({ consoleSessionEnds: new Map<string, number>() })

export const ConsoleSessionsRepoMemory = Layer.effect(
  ConsoleSessionsRepo,
  Effect.map(memoryTables(consoleSessionTables), (db) => ({
    end: (id, until, now) =>
      db.write((t, record) => {
        for (const [old, at] of [...t.consoleSessionEnds]) if (at <= now) deleteIn(t.consoleSessionEnds, old, record)
        setIn(t.consoleSessionEnds, id, until, record)
      }),
    ended: (id, now) => db.read((t) => (t.consoleSessionEnds.get(id) ?? 0) > now),
  })),
)
