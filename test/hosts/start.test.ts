/**
 * Starting the server as a newcomer does: HOST and PORT=0 in the banner, and `--demo` to get demo keys again
 * on a store that already holds the demo account.
 */
import { mkdtempSync, rmSync } from "node:fs"
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
  it("the second start prints no keys; with --demo it prints new ones for the same demo application, and they work", async () => {
    const env = { PGLITE_DIR: join(dir, "pglite"), PORT: "0", CONSOLE_TOKEN: "console-start-token" }
    const first = await startHost("node", env)
    const original = first.banner
    expect(await first.stop()).toBe(0)

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
  })
})
