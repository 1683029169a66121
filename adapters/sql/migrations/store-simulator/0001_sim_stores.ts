/**
 * The store-platform simulator's stores (DECISIONS 9.5), created only while the simulator is selected (not a
 * production table). `products` is JSON text: `[{ id, name, priceHalalas, available }]`.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import type { Migration } from "../../migrate.ts"

const statements: ReadonlyArray<string> = [
  `CREATE TABLE sim_stores (
    platform text NOT NULL,
    ref text NOT NULL,
    name text NOT NULL,
    url text,
    products text NOT NULL,
    reachable boolean NOT NULL,
    PRIMARY KEY (platform, ref)
  )`,
]

export const migration: Migration = {
  number: 1,
  name: "sim_stores",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }),
  ),
}
