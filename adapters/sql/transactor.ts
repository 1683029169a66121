import { Effect, Layer } from "effect"
import { Transactor } from "../../ports/store/transactor.ts"
import { client, transaction } from "./rows.ts"

/** `sql.withTransaction`: nested calls become savepoints of the outer transaction. */
export const TransactorSql = Layer.effect(
  Transactor,
  Effect.map(client, (sql) => ({ withTransaction: transaction(sql) })),
)
