/**
 * Every reach of the PostgreSQL driver (pg-client.ts) into `pg`'s private internals, and nothing else.
 * Checked against pg 8.23.1, pinned exactly in package.json; test/fences/pg-internals.test.ts fails, naming
 * what moved, when the installed `pg` no longer has one of them. Upgrade `pg` only with that test passing.
 *
 * - `connection.parsedStatements` (lib/connection.js, filled by lib/client.js on ParseComplete): whether BEGIN
 *   is prepared on a connection, so a transaction's first statement carries it (one round trip less).
 * - `connection.stream`, corked for one turn of the event loop, and the `pipeline` flag of a client already
 *   made (a constructor option, read-only in @types/pg: the pool's clients share one config, and only the few
 *   shared connections pipeline): the statements of concurrent requests leave in one write (pg-client.ts
 *   `pipelineOver`: host CPU a verification -10 to -17 %, PostgreSQL's -8 to -15 %, bench/verify.ts).
 * - `Query`'s protocol hooks (`prepare`, `handleRowDescription`, `handleCommandComplete`, `_checkForMultirow`,
 *   `_accumulateRows`) and its result's (`_result`: `fields`, `_parsers`, `_prebuiltEmptyResultObject`): a named
 *   statement reuses its result template (`TemplatedQuery`: 3 µs of CPU where `pg` takes 7 to 10 for a
 *   17-column result), and a statement carries its transaction's BEGIN (`carryingBegin`).
 */
// Deno has no types for npm:pg of its own (tsc and Node read @types/pg from node_modules).
// @ts-types="npm:@types/pg@^8.15.0"
import Pg from "pg"

/** The `pg` these internals were read from (package.json pins it; the fence test holds them to each other). */
export const pgVersion = "8.23.1"

export type Done = (error: Error | undefined, result: any) => void

interface ClientInternals {
  readonly connection: {
    readonly parsedStatements: Record<string, string>
    readonly stream: Corkable
  }
  pipeline: boolean
}

const internals = (client: Pg.ClientBase) => client as unknown as ClientInternals

/** The text prepared under `name` on the client's connection, undefined when it is not prepared there. */
export const preparedText = (client: Pg.ClientBase, name: string): string | undefined =>
  internals(client).connection.parsedStatements[name]

export interface Corkable {
  cork(): void
  uncork(): void
}

/** The client's socket (a `net.Socket`, or a TLS socket over one), whose writes can be held and sent as one. */
export const socketOf = (client: Pg.ClientBase): Corkable => internals(client).connection.stream

/**
 * Switches `pg`'s pipeline mode on a client already connected (`on`), or back off for the pool's other uses:
 * several statements in flight, answered in order, each with its own Sync.
 */
export const setPipelined = (client: Pg.ClientBase, on: boolean): void => {
  internals(client).pipeline = on
}

/** What `Result.addFields` builds from a RowDescription: the fields, their type parsers, the empty row. */
interface ResultTemplate {
  readonly fields: unknown
  readonly parsers: unknown
  readonly emptyRow: unknown
}

/** The result templates of the named statements, per connection (a connection describes its own statements). */
const templatesOf = new WeakMap<object, Map<string, ResultTemplate>>()

/**
 * A named statement that reuses its result template. On every execution `pg` rebuilds the fields' type
 * parsers and the empty row from the statement's RowDescription (`Result.addFields`): 7 to 10 µs of CPU for a
 * 17-column result, where reusing them takes 3 (`npm run bench -- sql-statement`). A prepared statement's
 * columns cannot change on its connection (PostgreSQL refuses to run one whose result type changed), so the
 * template of its first execution on a connection serves its later ones there; another connection, which
 * prepares and describes the statement itself, builds its own (a column whose type a migration changed in
 * between is read with its new type there). `pg`'s own fields are set as `Result.addFields` sets them.
 * Exported for bench/sql-statement.ts.
 */
export class TemplatedQuery extends (Pg.Query as unknown as new (
  config: Pg.QueryConfig | string,
  values?: ReadonlyArray<unknown>,
  callback?: Done,
) => any) {
  private templates: Map<string, ResultTemplate> | undefined = undefined
  prepare(connection: object) {
    // An unnamed statement (BEGIN's carrier may be one) is described afresh each time.
    if (typeof this.name === "string") {
      let templates = templatesOf.get(connection)
      if (templates === undefined) templatesOf.set(connection, templates = new Map())
      this.templates = templates
    }
    super.prepare(connection)
  }
  handleRowDescription(msg: unknown) {
    const template = this.templates?.get(this.name)
    if (template === undefined) {
      super.handleRowDescription(msg)
      const result = this._result
      this.templates?.set(this.name, {
        fields: result.fields,
        parsers: result._parsers,
        emptyRow: result._prebuiltEmptyResultObject,
      })
      return
    }
    this._checkForMultirow()
    const result = this._result
    result.fields = template.fields
    result._parsers = template.parsers
    result._prebuiltEmptyResultObject = template.emptyRow
    this._accumulateRows = this.callback || !this.listeners("row").length
  }
}

/**
 * A named statement run with its callback, as a query reusing its result template. Built from the text, the
 * values and the callback, and named after: given a config object, `pg` copies it property by property
 * (`cloneQueryConfig`, 1.3 % of the Verify host's CPU profile samples); given a text, it does not.
 */
export const templated = (config: Pg.QueryConfig, callback: Done): Pg.Submittable => {
  const query = new TemplatedQuery(config.text, config.values, callback)
  query.name = config.name
  return query as unknown as Pg.Submittable
}

/**
 * A transaction's first statement with its BEGIN, in one write and one round trip: Bind and Execute of the
 * prepared BEGIN, then the statement's own messages and one Sync. Nothing stands between them, so were BEGIN
 * refused, PostgreSQL would skip the statement up to the Sync (the statement never runs outside the
 * transaction). BEGIN's CommandComplete is the first the query receives and is not the statement's.
 * Only for a statement sent by the extended protocol (it has parameters): `prepare` is that protocol's path.
 */
class BegunStatement extends TemplatedQuery {
  private begun = false
  /** Read by bench/verify-lib/trace.ts, which logs the BEGIN it carries. */
  readonly carriesBegin = true
  /** The name BEGIN is prepared under on the connection. */
  beginName = ""
  override prepare(connection: any) {
    connection.bind({ statement: this.beginName, portal: "", values: [] })
    connection.execute({})
    super.prepare(connection)
  }
  handleCommandComplete(msg: unknown, connection: unknown) {
    if (this.begun) return super.handleCommandComplete(msg, connection)
    this.begun = true
  }
}

/**
 * `config` carrying the BEGIN prepared as `beginName` on the connection it is sent on (`preparedText` says
 * whether it is); `config` must have values.
 */
export const carryingBegin = (beginName: string, config: Pg.QueryConfig, done: Done): Pg.Submittable => {
  const query = new BegunStatement({ ...config, callback: done } as Pg.QueryConfig)
  query.beginName = beginName
  return query as unknown as Pg.Submittable
}
