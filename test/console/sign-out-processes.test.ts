/**
 * Sign-out holds across processes (issue 33; docs/decisions.md, "The console as a web app"): a session signed out
 * in one process is refused by another on the same store, though its cookie is still signed and unexpired. Two
 * platforms on one PostgreSQL schema stand for two processes (each its own pool, its own memory).
 */
import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { startServer, usePostgresServer } from "../support/server.ts"
import { signIn } from "./web-support.ts"

const databaseUrl = process.env.DATABASE_URL
const suite = databaseUrl
  ? "sign-out on PostgreSQL (DATABASE_URL): a session signed out in one process is refused by another"
  : "sign-out across processes — SKIPPED: DATABASE_URL is not set"

describe.runIf(databaseUrl !== undefined)(suite, () => {
  const s = usePostgresServer(databaseUrl!)

  it("signed in on one, out on the other: the same cookie is sent to sign in again by both", async () => {
    const other = await startServer({ store: "sql", databaseUrl: Option.some(s.storeUrl) }, {
      jobs: false,
      demo: false,
    })
    try {
      const here = await signIn(s.baseUrl, s.consoleToken)
      const session = { cookie: here.session }
      const on = (base: string) => fetch(`${base}/console/accounts`, { redirect: "manual", headers: session })
      // One cookie, both processes accept it.
      expect((await on(s.baseUrl)).status).toBe(200)
      expect((await on(other.baseUrl)).status).toBe(200)

      // Signed out through the other process.
      const out = await fetch(`${other.baseUrl}/console/sign-out`, {
        method: "POST",
        redirect: "manual",
        headers: { ...session, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: here.csrf }).toString(),
      })
      expect(out.status).toBe(303)
      for (const base of [other.baseUrl, s.baseUrl]) {
        const answer = await on(base)
        expect(answer.status, base).toBe(303)
        expect(answer.headers.get("location"), base).toMatch(/sign-in/)
      }
      // Its forms too: a POST with the old cookie and its CSRF token changes nothing.
      const post = await fetch(`${s.baseUrl}/console/accounts`, {
        method: "POST",
        redirect: "manual",
        headers: { ...session, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: here.csrf, name: "After sign-out" }).toString(),
      })
      expect(post.status).toBe(401)
      const again = await signIn(s.baseUrl, s.consoleToken)
      expect(await (await again.get("/console/accounts")).text()).not.toContain("After sign-out")
      // A new session is unaffected.
      expect((await fetch(`${other.baseUrl}/console/accounts`, { headers: { cookie: again.session } })).status)
        .toBe(200)
    } finally {
      await other.close()
    }
  })
})
