/**
 * Preload for the Node host (`node --import tsx --import ./bench/verify-lib/trace.ts hosts/node.ts`): writes
 * every SQL statement the process sends, one line each (`SQL\t<connection>\t<text>`), to stderr. Used by
 * `bench/verify.ts --statements` to count the statements of one verification; never in a timed run.
 */
import { PGlite } from "@electric-sql/pglite"
import pg from "pg"

const oneLine = (text: unknown) =>
  String(typeof text === "object" && text !== null ? (text as { text: string }).text : text)
    .replace(/\s+/g, " ")
    .trim()

const ids = new WeakMap<object, number>()
let lastId = 0
const idOf = (conn: object) => {
  let id = ids.get(conn)
  if (id === undefined) ids.set(conn, id = ++lastId)
  return id
}

const log = (conn: object, text: unknown) => process.stderr.write(`SQL\t${idOf(conn)}\t${oneLine(text)}\n`)

const pgQuery = pg.Client.prototype.query
pg.Client.prototype.query = function (this: unknown, ...args: Array<unknown>) {
  // A transaction's first statement may carry its BEGIN (adapters/sql/pg-client.ts): logged as its own line.
  if ((args[0] as { carriesBegin?: boolean } | null)?.carriesBegin === true) log(this as object, "BEGIN")
  log(this as object, args[0])
  return (pgQuery as (...a: Array<unknown>) => unknown).apply(this, args)
} as typeof pgQuery

for (const method of ["query", "exec"] as const) {
  const original = PGlite.prototype[method]
  ;(PGlite.prototype as any)[method] = function (this: PGlite, ...args: Array<unknown>) {
    log(this, args[0])
    return (original as (...a: Array<unknown>) => unknown).apply(this, args)
  }
}
