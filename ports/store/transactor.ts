import { Context, type Effect } from "effect"

/**
 * Runs an effect as one store transaction: every repository call inside it commits together or not
 * at all (a failure or defect rolls back). Nested calls join the outer transaction.
 */
export class Transactor extends Context.Tag("ports/Transactor")<Transactor, {
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
