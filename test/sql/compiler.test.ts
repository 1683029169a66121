/**
 * adapters/sql/compiler.ts is `@effect/sql-pg`'s statement compiler written over `@effect/sql` (so that a PGlite store
 * does not load `pg`): every helper the repositories use compiles to the same text and parameters as the library's.
 */
import { assert, describe, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Reactivity from "@effect/experimental/Reactivity"
import { makeCompiler } from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import { pgCompiler } from "../../adapters/sql/compiler.ts"

/** A client that never runs a statement: only its builders are used, to make fragments. */
const builders = Effect.gen(function* () {
  return yield* SqlClient.make({
    acquirer: Effect.die("not run"),
    compiler: pgCompiler,
    spanAttributes: [],
  })
}).pipe(Effect.provide(Reactivity.layer))

describe("the PostgreSQL compiler compiles as @effect/sql-pg's makeCompiler()", () => {
  it.effect("placeholders, identifiers, insert, in, and, or, update, update from values, unsafe", () =>
    Effect.gen(function* () {
      const sql = yield* builders
      const library = makeCompiler()
      const rows = [{ id: 1, name: "Noura" }, { id: 2, name: "Faisal" }]
      // A fragment keeps the text it was first compiled to: each compiler is given fragments of its own.
      const fragments = () => [
        sql`SELECT ${sql("a column")} FROM ${sql("people")} WHERE id = ${7} AND name = ${"x"}`,
        sql`INSERT INTO people ${sql.insert(rows)}`,
        sql`INSERT INTO people ${sql.insert(rows).returning("*")}`,
        sql`SELECT * FROM people WHERE id IN ${sql.in([1, 2, 3])} AND ${sql.and([sql`a = ${1}`, sql`b = ${2}`])}`,
        sql`SELECT 1 WHERE ${sql.or([sql`a = ${1}`, sql`b = ${"two"}`])}`,
        sql`UPDATE people SET ${sql.update({ id: 1, name: "Huda", active: true }, ["id"])} WHERE id = ${1}`,
        sql`UPDATE people SET name = data.name FROM ${sql.updateValues(rows, "data")} WHERE people.id = data.id`,
        sql`SELECT ${sql.unsafe("now()")}, ${sql.literal("'x'")}, ${new Date(0)}, ${null}`,
      ]
      const ours = fragments().map((f) => pgCompiler.compile(f, false))
      const theirs = fragments().map((f) => library.compile(f, false))
      assert.deepStrictEqual(ours, theirs)
      assert.strictEqual(ours[0][0], `SELECT "a column" FROM "people" WHERE id = $1 AND name = $2`)
    }))
})
