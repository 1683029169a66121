/**
 * The fence of adapters/sql/pg-internals.ts: `pg` is the pinned version, and each private internal the module
 * reaches is still where it reads it. The shapes are checked on a client never connected; what they do, on a
 * real PostgreSQL (DATABASE_URL; skipped under a name saying so otherwise).
 */
import type { Socket } from "node:net"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  carryingBegin,
  type Done,
  pgVersion,
  preparedText,
  setPipelined,
  socketOf,
  templated,
} from "../../adapters/sql/pg-internals.ts"
import { expectPinned, installedVersion } from "./pinned.ts"

const module = "adapters/sql/pg-internals.ts"

/** What the failure says: which internal moved, and what to do. */
const moved = (internal: string) =>
  `pg ${installedVersion("pg")} moved \`${internal}\`: ${module} must be updated before upgrading pg ` +
  `(it was checked against ${pgVersion})`

describe(`${module}: pg's internals`, () => {
  it(`pg is pinned and installed at ${pgVersion}`, () => {
    expectPinned("pg", pgVersion, module)
  })

  it("a client holds its connection's prepared statements, its socket and its pipeline flag", () => {
    const client = new Pg.Client() as unknown as Record<string, any>
    expect(typeof client.connection?.parsedStatements, moved("client.connection.parsedStatements")).toBe("object")
    const stream = client.connection?.stream
    expect(typeof stream?.cork, moved("client.connection.stream.cork")).toBe("function")
    expect(typeof stream?.uncork, moved("client.connection.stream.uncork")).toBe("function")
    expect(client.pipeline, moved("client.pipeline (false unless the config sets it)")).toBe(false)
  })

  it("a Query has the protocol hooks and the result fields TemplatedQuery and carryingBegin take over", () => {
    const hooks = ["prepare", "handleRowDescription", "handleCommandComplete", "_checkForMultirow", "listeners"]
    for (const hook of hooks) expect(typeof (Pg.Query.prototype as any)[hook], moved(`Query#${hook}`)).toBe("function")
    const result = (new Pg.Query("SELECT 1") as any)._result
    for (const field of ["fields", "_parsers", "_prebuiltEmptyResultObject"]) {
      expect(result !== undefined && field in result, moved(`Query#_result.${field}`)).toBe(true)
    }
    const connection = (new Pg.Client() as any).connection
    for (const message of ["bind", "execute"]) {
      expect(typeof connection[message], moved(`client.connection.${message}`)).toBe("function")
    }
  })
})

const databaseUrl = process.env.DATABASE_URL
const live = databaseUrl
  ? `${module}: pg's internals on PostgreSQL (DATABASE_URL)`
  : `${module}: pg's internals on PostgreSQL — SKIPPED: DATABASE_URL is not set`

describe.runIf(databaseUrl !== undefined)(live, () => {
  let client: Pg.Client
  beforeAll(async () => {
    client = new Pg.Client({ connectionString: databaseUrl })
    await client.connect()
  })
  afterAll(() => client?.end())

  const run = (make: (done: Done) => Pg.Submittable): Promise<Pg.QueryResult> =>
    new Promise((resolve, reject) => {
      client.query(make((error, result) => error ? reject(error) : resolve(result)))
    })

  it("a named statement's text is in the connection's prepared statements once it has run", async () => {
    const text = "SELECT $1::int AS n"
    expect(preparedText(client, "fence_prepared"), moved("client.connection.parsedStatements")).toBeUndefined()
    await client.query({ name: "fence_prepared", text, values: [1] })
    expect(preparedText(client, "fence_prepared"), moved("client.connection.parsedStatements")).toBe(text)
  })

  it("a templated statement reuses its first result's fields and parsers on the connection", async () => {
    const config = { name: "fence_templated", text: "SELECT $1::int AS n, to_timestamp($1::int) AS at" }
    const first = await run((done) => templated({ ...config, values: [1] }, done))
    const second = await run((done) => templated({ ...config, values: [2] }, done))
    expect(second.rows, moved("Query#handleRowDescription / Query#_result")).toEqual([{ n: 2, at: new Date(2000) }])
    expect(first.rows).toEqual([{ n: 1, at: new Date(1000) }])
    expect(second.fields, moved("Query#_result.fields (the template is not reused)")).toBe(first.fields)
  })

  it("a statement carrying BEGIN answers its own rows and leaves the connection in the transaction", async () => {
    await client.query({ name: "fence_begin", text: "BEGIN", values: [] })
    await client.query("COMMIT")
    expect(preparedText(client, "fence_begin"), moved("client.connection.parsedStatements")).toBe("BEGIN")
    const result = await run((done) =>
      carryingBegin("fence_begin", { name: "fence_carried", text: "SELECT $1::int AS n", values: [7] }, done)
    )
    expect(result.rows, moved("Query#handleCommandComplete (BEGIN's completion taken for the statement's)"))
      .toEqual([{ n: 7 }])
    // SAVEPOINT is refused outside a transaction block.
    const savepoint = await client.query("SAVEPOINT fence").then(() => "taken", (e: Error) => e.message)
    expect(savepoint, moved("client.connection.bind / execute (BEGIN was not sent)")).toBe("taken")
    await client.query("ROLLBACK")
  })

  it("the socket pg-internals.ts corks is the connection's own", () => {
    const socket = socketOf(client) as unknown as Socket
    expect(socket.remotePort, moved("client.connection.stream")).toBe(Number(new URL(databaseUrl!).port || 5432))
    socket.cork()
    expect(socket.writableCorked, moved("client.connection.stream.cork")).toBe(1)
    socket.uncork()
    expect(socket.writableCorked).toBe(0)
  })

  it("the pipeline flag set on a connected client is read: statements pipeline, a portal is refused", async () => {
    setPipelined(client, true)
    try {
      const answers = await Promise.all([1, 2, 3].map((i) => client.query("SELECT $1::int AS n", [i])))
      expect(answers.map((a) => a.rows[0].n)).toEqual([1, 2, 3])
      // pg refuses a query that keeps a portal open only in pipeline mode.
      const portal = await client.query({ text: "SELECT 1", rows: 1 } as Pg.QueryConfig)
        .then(() => "run", (e: Error) => e.message)
      expect(portal, moved("client.pipeline (set on a connected client, it is not read)")).toMatch(/pipeline mode/)
    } finally {
      setPipelined(client, false)
    }
    expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }])
  })
})
