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

/**
 * PGlite: every statement reaches PostgreSQL through `execProtocolStream` (PGlite's own `query` and `exec`, and
 * adapters/sql/pglite-client.ts's named statements): an execution is a Query message (its text) or a Bind (the text
 * its statement was parsed from), so those are logged; a Parse alone (a statement prepared) is not an execution.
 */
const texts = new WeakMap<object, Map<string, string>>()
const decoder = new TextDecoder()
const cString = (bytes: Uint8Array, at: number): [string, number] => {
  const end = bytes.indexOf(0, at)
  return [decoder.decode(bytes.subarray(at, end)), end + 1]
}
const original = PGlite.prototype.execProtocolStream
PGlite.prototype.execProtocolStream = function (this: PGlite, message: Uint8Array, ...rest: Array<unknown>) {
  let parsed = texts.get(this)
  if (parsed === undefined) texts.set(this, parsed = new Map())
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength)
  for (let at = 0; at < message.length;) {
    const kind = String.fromCharCode(message[at])
    const length = view.getInt32(at + 1)
    const body = at + 5
    if (kind === "Q") log(this, cString(message, body)[0])
    else if (kind === "P") {
      const [name, next] = cString(message, body)
      parsed.set(name, cString(message, next)[0])
    } else if (kind === "B") {
      const [, next] = cString(message, body)
      log(this, parsed.get(cString(message, next)[0]) ?? "?")
    }
    at += 1 + length
  }
  return (original as (...a: Array<unknown>) => Promise<any>).apply(this, [message, ...rest])
} as typeof original
