/**
 * Proforma numbers on PostgreSQL (DECISIONS 12, ARCHITECTURE "several processes on one PostgreSQL behave as
 * one"): 50 proformas asked at once get 50 distinct, consecutive numbers (the year's counter row is taken in
 * each proforma's own transaction). Runs when DATABASE_URL is set; skipped under a name saying so otherwise.
 */
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { startServer, type TestServer } from "../support/server.ts"
import { createSchema, dropSchema, withSearchPath } from "../support/pg.ts"
import { forSuite } from "../support/suite.ts"
import { accountWithToken } from "./support.ts"

const databaseUrl = process.env.DATABASE_URL
const suite = databaseUrl
  ? "proformas on PostgreSQL (DATABASE_URL): 50 concurrent creates get 50 distinct consecutive numbers"
  : "proformas on PostgreSQL — SKIPPED: DATABASE_URL is not set"

describe.runIf(databaseUrl !== undefined)(suite, () => {
  let schemaUrl = ""
  const s = forSuite(async (): Promise<TestServer> => {
    const schema = `wallet_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
    await createSchema(databaseUrl!, schema)
    schemaUrl = withSearchPath(databaseUrl!, schema)
    const server = await startServer({ store: "sql", databaseUrl: Option.some(schemaUrl) })
    return {
      ...server,
      close: async () => {
        await server.close()
        await dropSchema(databaseUrl!, schema)
      },
    }
  })

  it("50 at once, from five accounts: numbers n..n+49, no gap, no repeat, all of the Riyadh year", async () => {
    const tokens = await Promise.all(Array.from({ length: 5 }, () => accountWithToken(s).then((a) => a.token)))
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.call("POST", "/v1/account/wallet/proformas", {
          key: tokens[i % 5],
          body: { amount_halalas: 1_000 + i, buyer: { name: `Buyer ${i}` } },
        })),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201))
    const numbers = answers.map((a) => a.body.data.number as string)
    const years = new Set(numbers.map((n) => n.slice(3, 7)))
    expect(years.size).toBe(1)
    const counts = numbers.map((n) => Number(n.slice(8))).sort((a, b) => a - b)
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => counts[0] + i))
    expect(counts[0]).toBe(1)
  })

  it("a settle and a pay race themselves: of 10 concurrent settles of one proforma, one credits, nine are 409", async () => {
    const { token } = await accountWithToken(s)
    const p = (await s.call("POST", "/v1/account/wallet/proformas", {
      key: token,
      body: { amount_halalas: 5_000, buyer: { name: "A" } },
    })).body.data
    const settles = await Promise.all(
      Array.from(
        { length: 10 },
        () => s.call("POST", `/console/v1/proformas/${p.id}/settle`, { key: s.consoleToken, body: {} }),
      ),
    )
    expect(settles.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)])
    const link = (await s.call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: 1_000 } }))
      .body.data
    const pays = await Promise.all(
      Array.from(
        { length: 10 },
        () => s.call("POST", `/console/v1/simulator/topups/${link.id}/pay`, { key: s.consoleToken, body: {} }),
      ),
    )
    expect(pays.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)])
    expect((await s.call("GET", "/v1/account/wallet", { key: token })).body.data.balance_halalas).toBe(6_000)
  })

  it("two platforms on one database (as two processes, each with its own pool): 25 + 25 at once, consecutive", async () => {
    const other = await startServer({ store: "sql", databaseUrl: Option.some(schemaUrl) }, { jobs: false, demo: false })
    try {
      const mine = await accountWithToken(s)
      const theirs = await accountWithToken(other)
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? s : other).call("POST", "/v1/account/wallet/proformas", {
            key: i % 2 === 0 ? mine.token : theirs.token,
            body: { amount_halalas: 2_000, buyer: { name: `Buyer ${i}` } },
          })),
      )
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201))
      const counts = answers.map((a) => Number(a.body.data.number.slice(8))).sort((a, b) => a - b)
      expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => counts[0] + i))
      expect(new Set(counts).size).toBe(50)
    } finally {
      await other.close()
    }
  })
})
