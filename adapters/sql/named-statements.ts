/**
 * Which statement texts the drivers prepare under a name (adapters/sql/pg-client.ts for `pg`, pglite-client.ts for
 * PGlite): parameterised ones, up to `maxNamedStatements` distinct texts, and never one whose result's columns follow
 * a table's (`SELECT *`, `RETURNING *`): a column added later (a migration, another process) would change the result
 * type of a prepared statement, which PostgreSQL refuses ("cached plan must not change result type").
 */
export const maxNamedStatements = 1_000

/** `SELECT *`, `SELECT t.*`, `RETURNING *`: the result's columns follow the table's. */
export const selectsStar = /\b(?:SELECT|RETURNING)\s+(?:DISTINCT\s+)?(?:\w+\.)?\*|,\s*(?:\w+\.)?\*\s*(?:,|FROM\b)/i
