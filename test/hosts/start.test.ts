/**
 * Starting the server as a newcomer does: HOST and PORT=0 in the banner, `--demo` to get demo keys again
 * on a store that already holds the demo account, and the Bun host's choice of server (`BUN_SERVER`).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { jsonCall } from "../support/net.ts"
import { startHost } from "./host-process.ts"

const dir = mkdtempSync(join(tmpdir(), "start-test-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("HOST and PORT=0 are honoured in the banner", () => {
  it("PORT=0 listens on a free port and prints it; HOST=127.0.0.1 is printed as given", async () => {
    const p = await startHost("node", { PGLITE_DIR: "memory://", PORT: "0", HOST: "127.0.0.1" })
    try {
      expect(p.banner.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(p.port).toBeGreaterThan(0)
      expect((await jsonCall(p.baseUrl)("GET", "/healthz")).status).toBe(200)
    } finally {
      await p.stop()
    }
  })

  it("HOST=::1 is printed in brackets, the address it listens on", async () => {
    const p = await startHost("node", { PGLITE_DIR: "memory://", PORT: "0", HOST: "::1" }).catch(() => undefined)
    if (p === undefined) return // this machine has no IPv6 loopback
    try {
      expect(p.banner.url).toMatch(/^http:\/\/\[::1\]:\d+$/)
      const res = await fetch(`${p.banner.url}/healthz`)
      expect(res.status).toBe(200)
    } finally {
      await p.stop()
    }
  })
})

describe("`npm start -- --demo` re-issues a fresh demo key pair on a store that already holds the demo account", () => {
  // Its first start is also the Node host's case of "a new data directory starts from the store snapshot" below.
  it(
    "the second start prints no keys; with --demo it prints new ones for the same demo application, and they work",
    async () => {
      const dataDir = join(dir, "pglite")
      const env = { PGLITE_DIR: dataDir, PORT: "0", CONSOLE_TOKEN: "console-start-token" }
      const first = await startHost("node", env)
      const original = first.banner
      try {
        expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true)
        expect((await jsonCall(first.baseUrl)("GET", "/healthz")).status).toBe(200)
      } finally {
        expect(await first.stop()).toBe(0)
      }

      const plain = await startHost("node", env, { demo: false })
      expect(plain.banner.demoLiveKey).toBeUndefined()
      expect(await plain.stop()).toBe(0)

      const again = await startHost("node", env, { args: ["--demo"] })
      try {
        expect(again.banner.demoAccount).toBe(original.demoAccount)
        expect(again.banner.demoApplication).toBe(original.demoApplication)
        expect(again.banner.demoLiveKey).toMatch(/^svc_live_/)
        expect(again.banner.demoLiveKey).not.toBe(original.demoLiveKey)
        expect(again.banner.demoTestKey).not.toBe(original.demoTestKey)
        const call = jsonCall(again.baseUrl)
        for (const key of [again.banner.demoLiveKey!, original.demoLiveKey!]) {
          const read = await call("GET", `/v1/verify/${crypto.randomUUID()}`, { key })
          expect(read).toMatchObject({ status: 404, body: { error: "not_found" } })
        }
        const started = await call("POST", "/v1/verify/start", {
          key: again.banner.demoTestKey,
          body: { to: "+966500000000" },
        })
        expect(started.status).toBe(200)
      } finally {
        await again.stop()
      }
    },
    120_000,
  )
})

describe("`BUN_SERVER=serve` runs the Bun host on Bun.serve over the web handler (hosts/bun.ts)", () => {
  /** The first bytes the server sends back to `request` on a fresh connection, or "" when it closes without any. */
  const rawAnswer = (port: number, request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1")
      let text = ""
      socket.setEncoding("latin1").on("data", (chunk: string) => (text += chunk))
      socket.once("error", reject)
      socket.once("close", () => resolve(text))
      socket.write(request)
      setTimeout(() => socket.destroy(), 2_000)
    })

  it("the banner, a Verify round trip with the demo live key, 401 without a key; SIGTERM exits 0", async () => {
    const token = "console-bun-serve-token"
    const p = await startHost("bun", { PGLITE_DIR: "memory://", PORT: "0", CONSOLE_TOKEN: token, BUN_SERVER: "serve" })
    try {
      expect(p.banner.url).toBe(`http://127.0.0.1:${p.port}`)
      const call = jsonCall(p.baseUrl)
      const key = p.banner.demoLiveKey!
      const started = await call("POST", "/v1/verify/start", { key, body: { to: "0551234560" } })
      expect(started).toMatchObject({ status: 200, body: { status: "pending", to: "+966551234560" } })
      const sms = await call("GET", `/console/v1/simulator/sms?to=${encodeURIComponent("+966551234560")}`, {
        key: token,
      })
      const code = /\b\d{4,8}\b/.exec(sms.body.data[0].text)![0]
      const checked = await call("POST", "/v1/verify/check", { key, body: { id: started.body.id, code } })
      expect(checked).toMatchObject({ status: 200, body: { status: "verified" } })
      const unkeyed = await call("POST", "/v1/verify/start", { body: { to: "0551234560" } })
      expect(unkeyed).toMatchObject({ status: 401, body: { error: "unauthorized" } })
      // What tells Bun.serve from Bun's node:http: a method its parser does not know gets no answer at all
      // (the default host answers it 405 in JSON, as every other host does).
      expect(await rawAnswer(p.port, "FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n")).toBe("")
      expect(await rawAnswer(p.port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(
        /^HTTP\/1\.1 200 /,
      )
      // Header fields over 16 KiB never reach the handler (it does not count them on Bun.serve): Bun refuses
      // such a head itself with a bare 431; fields just under the limit get the platform's answer.
      const head = (fill: number) =>
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fill: ${"a".repeat(fill)}\r\nConnection: close\r\n\r\n`
      expect(await rawAnswer(p.port, head(16_300))).toMatch(/^HTTP\/1\.1 200 /)
      expect(await rawAnswer(p.port, head(16_400))).toMatch(/^HTTP\/1\.1 431 /)
      expect(await rawAnswer(p.port, head(20_000))).toMatch(/^HTTP\/1\.1 431 /)
    } finally {
      expect(await p.stop()).toBe(0)
    }
  })

  it("the default Bun host answers a method its parser does not know as every other host does: 405 in JSON", async () => {
    const p = await startHost("bun", { PGLITE_DIR: "memory://", PORT: "0" }, { demo: false })
    try {
      expect(await rawAnswer(p.port, "FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(/^HTTP\/1\.1 405 /)
    } finally {
      await p.stop()
    }
  })

  it("any other value is refused at start with one line naming it (exit code 2)", async () => {
    await expect(startHost("bun", { PGLITE_DIR: "memory://", PORT: "0", BUN_SERVER: "uws" })).rejects.toThrow(
      /bun exited \(2\) before it was ready\n--- output ---\nconfiguration: BUN_SERVER="uws" is not accepted; expected "node" or "serve"/,
    )
  })
})

describe("a new data directory starts from the store snapshot on every host (issue 28: unpacked before PGlite opens it)", () => {
  // The Node host's case is the first start of the `--demo` test above (a new directory, PG_VERSION, /healthz, and
  // the same demo account when it is opened again).
  for (const host of ["deno", "bun"] as const) {
    it(`${host}: a new directory is unpacked, answers, and opens again as it was left`, async () => {
      const dataDir = join(dir, `new-${host}`)
      const env = { PGLITE_DIR: dataDir, PORT: "0", CONSOLE_TOKEN: "console-start-token" }
      const first = await startHost(host, env)
      try {
        expect(existsSync(join(dataDir, "PG_VERSION"))).toBe(true)
        expect((await jsonCall(first.baseUrl)("GET", "/healthz")).status).toBe(200)
      } finally {
        expect(await first.stop()).toBe(0)
      }
      const again = await startHost(host, env, { args: ["--demo"] })
      try {
        expect(again.banner.demoAccount).toBe(first.banner.demoAccount)
      } finally {
        expect(await again.stop()).toBe(0)
      }
    }, 120_000)
  }
})
