import { PGlite } from "@electric-sql/pglite"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as PgliteClient from "../adapters/sql/pglite-client.ts"
setInterval(() => {}, 1 << 30)
const N = 5000
const raw = new PGlite("memory://")
await raw.waitReady
await raw.exec("create table t (id int primary key, a text)")
await raw.query("insert into t values (1, 'x')")
const rt = ManagedRuntime.make(PgliteClient.layer({ dataDir: "memory://" }))
const sql = await rt.runPromise(SqlClient.SqlClient)
await rt.runPromise(sql`create table t (id int primary key, a text)`)
await rt.runPromise(sql`insert into t values (1, 'x')`)
const time = async (label: string, f: () => Promise<unknown>) => {
  const t = performance.now()
  await f()
  console.error(label.padEnd(36), ((performance.now() - t) / N * 1000).toFixed(0), "us")
}
for (let r = 0; r < 3; r++) {
  await time("raw query", async () => { for (let i = 0; i < N; i++) await raw.query("select id, a from t where id = $1", [1]) })
  await time("raw query in transaction", () => raw.transaction(async (tx) => { for (let i = 0; i < N; i++) await tx.query("select id, a from t where id = $1", [1]) }))
  await time("effect sql, runPromise each", async () => { for (let i = 0; i < N; i++) await rt.runPromise(sql`select id, a from t where id = ${1}`) })
  await time("effect sql, one fiber", () => rt.runPromise(Effect.gen(function*() { for (let i = 0; i < N; i++) yield* sql`select id, a from t where id = ${1}` })))
  await time("effect sql, in one transaction", () => rt.runPromise(sql.withTransaction(Effect.gen(function*() { for (let i = 0; i < N; i++) yield* sql`select id, a from t where id = ${1}` }))))
}
process.exit(0)
