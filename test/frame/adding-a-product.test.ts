/**
 * "Adding a product edits that list and nothing else central": an example product (notes-product.ts) added
 * to the products list gets its routes and OpenAPI entries from its declarations, its tables on every store
 * (its own migration numbered within it), and its job on the simulated clock's advance.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Option } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { settingsFromEnv } from "../../adapters/config.ts"
import { makePlatform, type Platform } from "../../adapters/platform.ts"
import { products } from "../../adapters/products.ts"
import { notesProduct } from "./notes-product.ts"

const consoleToken = "frame-console-token"
const open: Array<Platform> = []

const start = async (store: "memory" | "sql", list = [...products, notesProduct]) => {
  const base = await Effect.runPromise(settingsFromEnv)
  const platform = await makePlatform(
    {
      ...base,
      store,
      databaseUrl: Option.none(),
      pgliteDir: "memory://",
      clock: "simulated",
      smsProvider: "simulator",
      consoleToken,
      consoleTokenGenerated: false,
    },
    { products: list, jobs: false, demo: false },
  )
  open.push(platform)
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await platform.fetch(
      new Request(`http://platform${path}`, {
        method,
        headers: { authorization: `Bearer ${consoleToken}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      "127.0.0.1",
    )
    const text = await res.text()
    return { status: res.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  return { platform, call }
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.dispose()))
})

describe("a product added to the products list is served, documented, stored and scheduled", () => {
  for (const store of ["memory", "sql"] as const) {
    it(`${store === "sql" ? "PGlite" : "memory"}: its operations answer from their declarations`, async () => {
      const { call } = await start(store)
      const created = await call("POST", "/console/v1/example-notes", { body: "remember" })
      expect(created.status).toBe(201)
      expect(created.body.data).toMatchObject({ body: "remember" })
      const refused = await call("POST", "/console/v1/example-notes", { body: "" })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ error: "invalid_request", errors: { body: "invalid" } })
      expect(typeof refused.body.fields.body).toBe("string")
      const listed = await call("GET", "/console/v1/example-notes")
      expect(listed.body.data.map((n: { body: string }) => n.body)).toEqual(["remember"])
    })

    it(`${store === "sql" ? "PGlite" : "memory"}: its job falls due a day after a note and runs on the clock's advance`, async () => {
      const { call } = await start(store)
      await call("POST", "/console/v1/example-notes", { body: "for a day" })
      await call("POST", "/console/v1/simulator/clock", { advance_ms: 23 * 3_600_000 })
      expect((await call("GET", "/console/v1/example-notes")).body.data).toHaveLength(1)
      await call("POST", "/console/v1/simulator/clock", { advance_ms: 2 * 3_600_000 })
      expect((await call("GET", "/console/v1/example-notes")).body.data).toEqual([])
    })
  }

  it("its migration is recorded under its own name and number", async () => {
    const { platform } = await start("sql")
    // The SQL store's client is in the runtime (the platform's type names only what products use).
    const read = Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ product: string; number: number }>`SELECT product, number FROM schema_migrations`,
    )
    const rows = await platform.runtime.runPromise(
      read as Effect.Effect<ReadonlyArray<{ product: string; number: number }>>,
    )
    expect(rows).toContainEqual({ product: "example-notes", number: 1 })
  })

  it("its operations join /openapi.json", async () => {
    const { call } = await start("memory")
    const document = (await call("GET", "/openapi.json")).body
    expect(Object.keys(document.paths)).toContain("/console/v1/example-notes")
    expect(document.paths["/console/v1/example-notes"].post.operationId).toBe("example.notes.create")
  })

  it("without it in the list, none of it exists", async () => {
    const { call } = await start("memory", [...products])
    expect((await call("GET", "/console/v1/example-notes")).status).toBe(404)
  })
})
