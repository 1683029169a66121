/**
 * The console's pages when an app mounts the platform under a prefix (the examples' `/messaging/`): Express's
 * `app.use("/messaging", platform.node)` and the web handler's `prefix` (Deno.serve, Bun.serve). Every link,
 * form and redirect is relative, so a browser following them stays under the prefix.
 */
import express from "express"
import type { AddressInfo } from "node:net"
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { webHandler } from "../../adapters/http/web.ts"
import { useServer } from "../support/server.ts"
import { cookieOf, csrfOf, signIn } from "./web-support.ts"

const s = useServer()

/** The absolute URL a browser goes to for a page's relative link or Location. */
const resolve = (from: string, to: string) => new URL(to, from).toString()

const links = (page: string) =>
  [...page.matchAll(/(?:href|action)="([^"]+)"/g)].map((m) => m[1].replaceAll("&amp;", "&"))

const servers: Array<Server> = []
const serve = async (handler: Parameters<typeof createServer>[1]): Promise<string> => {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

let expressBase: string
let webBase: string

beforeAll(async () => {
  const app = express()
  app.use("/messaging", s.platform.node)
  expressBase = await serve(app)
  // A Deno.serve or Bun.serve app hands its requests to the web handler, which takes the prefix off.
  const web = webHandler(s.platform.dispatch, { prefix: "/messaging" })
  webBase = await serve(async (req, res) => {
    const chunks: Array<Buffer> = []
    for await (const c of req) chunks.push(c as Buffer)
    const answer = await web(
      new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        ...(req.method === "GET" || req.method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
      }),
      "127.0.0.1",
    )
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    res.end(Buffer.from(await answer.arrayBuffer()))
  })
})
afterAll(async () => {
  for (const server of servers) await new Promise((done) => server.close(done))
})

describe.each([["Express (node)", () => expressBase], ["the web handler (Deno, Bun)", () => webBase]])(
  "under /messaging/ through %s, every link and redirect stays under the prefix",
  (_, base) => {
    it("an approval's page: the sign-in, its way back, the page's links and forms", async () => {
      const start = `${base()}/messaging/console/accounts`
      const first = await fetch(start, { redirect: "manual" })
      expect(first.status).toBe(303)
      const signInUrl = resolve(start, first.headers.get("location")!)
      expect(signInUrl).toBe(`${base()}/messaging/console/sign-in?next=accounts`)
      const form = await fetch(signInUrl)
      const pre = cookieOf(form)!
      const page = await form.text()
      for (const link of links(page)) {
        expect(new URL(resolve(signInUrl, link)).pathname).toMatch(/^\/messaging\/console\//)
      }
      const posted = await fetch(resolve(signInUrl, "sign-in"), {
        method: "POST",
        redirect: "manual",
        headers: { cookie: pre, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrfOf(page), token: s.consoleToken, next: "accounts" }).toString(),
      })
      expect(posted.status).toBe(303)
      expect(resolve(signInUrl, posted.headers.get("location")!)).toBe(start)
      const session = cookieOf(posted)!
      const accounts = await fetch(start, { headers: { cookie: session } })
      expect(accounts.status).toBe(200)
      const text = await accounts.text()
      const found = links(text).map((l) => new URL(resolve(start, l)).pathname)
      expect(found).toContain("/messaging/console/assets/console.css")
      expect(found).toContain("/messaging/console/approvals")
      expect(found).toContain("/messaging/console/sign-out")
      for (const path of found) expect(path).toMatch(/^\/messaging\/console\//)
      const css = await fetch(resolve(start, "assets/console.css"))
      expect(css.status).toBe(200)
    })
  },
)

describe("the same platform unprefixed still serves its pages at /console/", () => {
  it("signs in", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    expect((await b.get("/console/accounts")).status).toBe(200)
  })
})
