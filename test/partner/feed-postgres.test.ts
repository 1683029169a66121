/**
 * The feed's paging on PostgreSQL while events are being written concurrently (DECISIONS 13: "oldest first after
 * cursor"; issue 15: "feed paging without gaps or repeats while events are being written concurrently"). Events
 * are appended to the outbox by transactions of their own connections (the trigger copies them into the feed, as
 * it does for every product's events), committing in any order, while a poller pages through the feed over HTTP.
 */
import { Option } from "effect"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createSchema, dropSchema, withSearchPath } from "../support/pg.ts"
import { startServer, type TestServer } from "../support/server.ts"
import { clientApplication, feed, partnerAccount, type PartnerSetup, readAll } from "./support.ts"

const databaseUrl = process.env.DATABASE_URL
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const webhookId = (id: string) => `msg_${id.replaceAll("-", "")}`

describe.runIf(databaseUrl !== undefined)("on PostgreSQL (DATABASE_URL)", () => {
  const schema = `partner_feed_${process.pid}_${Date.now()}`
  let s: TestServer
  let url: string
  let p: PartnerSetup
  const clients: Array<pg.Client> = []

  const connect = async () => {
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    clients.push(c)
    return c
  }

  /** Appends one event to the outbox on `c` (inside whatever transaction `c` has open); answers its feed id. */
  const append = async (c: pg.Client, event = "service.approved") => {
    const id = crypto.randomUUID()
    await c.query(
      `INSERT INTO outbox_events (id, event, data, application_id, account_id, external_id, created_at)
       VALUES ($1, $2, $3, NULL, $4, NULL, $5)`,
      [id, event, JSON.stringify({ id: webhookId(id) }), p.account.id, Date.now()],
    )
    return webhookId(id)
  }

  beforeAll(async () => {
    await createSchema(databaseUrl!, schema)
    url = withSearchPath(databaseUrl!, schema)
    s = await startServer({ store: "sql", databaseUrl: Option.some(url) })
  }, 60_000)
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => {})))
    await s?.close()
    await dropSchema(databaseUrl!, schema)
  })

  describe('issue 15: "an id sequence alone is not enough (a transaction holding a lower seq can commit after a higher one was read)"', () => {
    it("the entry of a later transaction waits for the earlier one, and both come in order, once", async () => {
      p = await partnerAccount(s, 0)
      const start = (await feed(s, p.key)).body.next_cursor
      const early = await connect()
      const late = await connect()
      await early.query("BEGIN")
      const first = await append(early) // lower seq, lower transaction id
      await late.query("BEGIN")
      const second = await append(late)
      await late.query("COMMIT") // the higher seq commits first
      const meanwhile = await feed(s, p.key, `cursor=${start}`)
      expect(meanwhile.status).toBe(200)
      expect(meanwhile.body.data).toEqual([]) // the committed `second` is held back behind the running `early`
      // That read waited (about a second) in vain; while `early` runs, the next answers at once.
      const asked = Date.now()
      expect((await feed(s, p.key, `cursor=${start}`)).body.data).toEqual([])
      expect(Date.now() - asked).toBeLessThan(900)
      await early.query("COMMIT")
      const after = await feed(s, p.key, `cursor=${meanwhile.body.next_cursor}`)
      expect(after.body.data.map((e: any) => e.id)).toEqual([first, second])
      const again = await feed(s, p.key, `cursor=${after.body.next_cursor}`)
      expect(again.body.data).toEqual([])
    }, 30_000)

    it(
      "a read made while the earlier transaction is about to commit waits for it (the feed shows a move as soon as it answered)",
      async () => {
        p = await partnerAccount(s, 0)
        const start = (await feed(s, p.key)).body.next_cursor
        const early = await connect()
        const late = await connect()
        await early.query("BEGIN")
        const first = await append(early)
        const second = await append(late) // autocommitted
        const reading = feed(s, p.key, `cursor=${start}`)
        await sleep(100)
        await early.query("COMMIT")
        expect((await reading).body.data.map((e: any) => e.id)).toEqual([first, second])
      },
      30_000,
    )
  })

  describe('DECISIONS 13: "oldest first after cursor" — pages without gaps or repeats while events are written concurrently', () => {
    it(
      "eight writers (transactions of 1 to 3 events, committing in any order) and console moves, one poller",
      async () => {
        p = await partnerAccount(s, 0)
        const writers = await Promise.all(Array.from({ length: 8 }, connect))
        const written: Array<string> = []
        let writing = true
        const write = async (c: pg.Client) => {
          for (let t = 0; t < 25; t++) {
            await c.query("BEGIN")
            const ids: Array<string> = []
            const n = 1 + Math.floor(Math.random() * 3)
            for (let i = 0; i < n; i++) {
              ids.push(await append(c))
              await sleep(Math.random() * 8)
            }
            if (Math.random() < 0.1) {
              await c.query("ROLLBACK") // never in the feed
            } else {
              await c.query("COMMIT")
              written.push(...ids)
            }
          }
        }
        const apps = await Promise.all(Array.from({ length: 20 }, (_, i) => clientApplication(s, p, { name: `M${i}` })))
        const moves = Promise.all(apps.map((a) => s.console("POST", `/applications/${a.id}/approve`)))
        const done = Promise.all([...writers.map(write), moves]).then(() => {
          writing = false
        })
        const seen: Array<any> = []
        let cursor: string | undefined
        while (writing) {
          const page = await readAll(s, p.key, cursor, 7)
          seen.push(...page.entries)
          cursor = page.cursor
        }
        await done
        const rest = await readAll(s, p.key, cursor, 7)
        seen.push(...rest.entries)
        const ids = seen.map((e) => e.id)
        expect(new Set(ids).size).toBe(ids.length) // no repeats
        const approved = seen.filter((e) => e.event === "service.approved" && e.data.application_id !== undefined)
        expect(approved.map((e) => e.data.application_id).sort()).toEqual(apps.map((a) => a.id).sort())
        expect(ids.filter((id) => written.includes(id)).sort()).toEqual([...written].sort()) // no gaps
        expect(ids.length).toBe(written.length + apps.length) // nothing rolled back
        // The whole feed read again from the start gives the same entries in the same order.
        expect((await readAll(s, p.key)).entries.map((e) => e.id)).toEqual(ids)
      },
      120_000,
    )
  })
})
