/**
 * The PGlite client's statement compiler: `@effect/sql-pg`'s `makeCompiler` without transforms (the one the `pg`
 * client, built by `@effect/sql-pg`, uses), written over `@effect/sql`'s `Statement.makeCompiler` here because
 * `@effect/sql-pg/PgClient` imports `pg` at its top, and a PGlite store (the embedded default) would load the
 * PostgreSQL driver for nothing: about 65 ms and 10-15 MB of every Node start (issue 28). Same placeholders (`$1`),
 * identifier quoting, `UPDATE … FROM (values …)` and `PgJson`.
 */
import * as Statement from "@effect/sql/Statement"

const escape = Statement.defaultEscape('"')

export const pgCompiler: Statement.Compiler = Statement.makeCompiler<Statement.Custom<"PgJson", unknown>>({
  dialect: "pg",
  placeholder: (n) => `$${n}`,
  onIdentifier: escape,
  onRecordUpdate: (placeholders, valueAlias, valueColumns, values, returning) => [
    `(values ${placeholders}) AS ${valueAlias}${valueColumns}${returning ? ` RETURNING ${returning[0]}` : ""}`,
    returning ? values.flat().concat(returning[1]) : values.flat(),
  ],
  onCustom: (type, placeholder) => [placeholder(undefined), [type.i0]],
})
