/**
 * `EMAIL_PROVIDER` and `DNS_PROVIDER` (DECISIONS 8.3, 1): each simulator's console routes exist only while its
 * provider is the simulator (else 404), its tables only while one of them is; an unknown name stops the start;
 * an SMTP server that cannot be reached is `503 email_unavailable`, nothing kept.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { settingsFromEnv } from "../../adapters/config.ts"
import { selectedProducts } from "../../adapters/products.ts"
import { freePort } from "../support/net.ts"
import { startServer, useServer } from "../support/server.ts"
import { api, inbox, send, setupEmail } from "./harness.ts"

const dnsRecord = { type: "TXT", name: "shop.sa", values: ["v=spf1 include:spf.mail.svc.sa ~all"] }

describe("EMAIL_PROVIDER=smtp with the DNS simulator", async () => {
  // Nobody listens there: the connection is refused at once.
  process.env.SMTP_HOST = "127.0.0.1"
  process.env.SMTP_PORT = String(await freePort())
  const s = useServer({ emailProvider: "smtp", dnsProvider: "simulator" })

  it("the provider simulator's routes answer 404; the DNS simulator's are there", async () => {
    const listed = await s.call("GET", "/console/v1/simulator/email", { key: s.consoleToken })
    expect(listed.status).toBe(404)
    const reported = await s.call("POST", `/console/v1/simulator/email/messages/${crypto.randomUUID()}/report`, {
      key: s.consoleToken,
      body: { status: "delivered" },
    })
    expect(reported.status).toBe(404)
    const put = await s.call("PUT", "/console/v1/simulator/dns/records", { key: s.consoleToken, body: dnsRecord })
    expect(put.status).toBe(200)
    expect(put.body.data).toEqual(dnsRecord)
  })

  it("an SMTP server that does not answer: 503 email_unavailable, nothing kept", async () => {
    const { app, key, token, mail } = await setupEmail(s)
    const res = await send(s, key, mail)
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 503, error: "email_unavailable" })
    expect((await api(s, token, "GET", `/applications/${app.id}/email/messages`)).body.data).toEqual([])
  })
})

describe("DNS_PROVIDER=system with the provider simulator", () => {
  const s = useServer({ emailProvider: "simulator", dnsProvider: "system" })
  it("the DNS simulator's route answers 404; the provider simulator's are there", async () => {
    const put = await s.call("PUT", "/console/v1/simulator/dns/records", { key: s.consoleToken, body: dnsRecord })
    expect(put.status).toBe(404)
    expect(await inbox(s)).toEqual([])
  })
})

describe("the simulators' tables", () => {
  it("are wired while either provider is the simulator, and not when neither is", async () => {
    const base = await Effect.runPromise(settingsFromEnv)
    const names = (emailProvider: string, dnsProvider: string) =>
      selectedProducts({ ...base, emailProvider, dnsProvider }).map((p) => p.name)
    expect(names("simulator", "simulator")).toEqual(
      expect.arrayContaining(["email-simulator", "email-provider-simulator", "dns-simulator"]),
    )
    expect(names("smtp", "simulator")).toContain("email-simulator")
    expect(names("simulator", "system")).toContain("email-simulator")
    const neither = names("smtp", "system")
    expect(neither).toContain("email")
    for (const simulator of ["email-simulator", "email-provider-simulator", "dns-simulator"]) {
      expect(neither).not.toContain(simulator)
    }
  })
  it("PLATFORM_DOMAINS defaults to svc.sa", async () => {
    expect((await Effect.runPromise(settingsFromEnv)).platformDomains).toEqual(["svc.sa"])
  })
})

describe("an unknown provider stops the start, naming the setting", () => {
  it("EMAIL_PROVIDER=nope", async () => {
    await expect(startServer({ emailProvider: "nope" })).rejects.toThrow(/EMAIL_PROVIDER=nope/)
  })
  it("DNS_PROVIDER=nope", async () => {
    await expect(startServer({ dnsProvider: "nope" })).rejects.toThrow(/DNS_PROVIDER=nope/)
  })
})

describe("PLATFORM_DOMAINS names the domains no sender may claim", () => {
  const s = useServer({ platformDomains: ["tawk.example"] })
  it("a domain below one is domain_tawked; svc.sa is then anyone's", async () => {
    const { app, token } = await setupEmail(s, { domain: null })
    const add = (domain: string) => api(s, token, "POST", `/applications/${app.id}/email/senders`, { domain })
    expect((await add("mail.tawk.example")).body.error).toBe("domain_tawked")
    expect((await add("svc.sa")).status).toBe(201)
  })
})

describe("the simulators' text on SQL", () => {
  const s = useServer({ store: "sql", pgliteDir: "memory://" })
  it("text no store holds is 400, not a store error", async () => {
    const res = await s.call("GET", "/console/v1/simulator/email?to=a%00b@example.net", { key: s.consoleToken })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe("invalid_request")
    const put = await s.call("PUT", "/console/v1/simulator/dns/records", {
      key: s.consoleToken,
      body: { type: "TXT", name: "shop.sa", values: ["v=spf1\u0000"] },
    })
    expect(put.status).toBe(400)
  })
})
