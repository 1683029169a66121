import { Effect, Layer } from "effect"
import { Transactor } from "../../ports/store/transactor.ts"
import { MemoryDb } from "./db.ts"

export const TransactorMemory = Layer.effect(
  Transactor,
  Effect.map(MemoryDb, (db) => ({ withTransaction: db.withTransaction })),
)
