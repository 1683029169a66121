/**
 * Issue 32, "Logs": never a key, token, code, secret, full destination number, e-mail address or body. Each of them
 * goes through every way in (headers, query, path, body; the console, the account API, the Partner API, the
 * simulator routes, the jobs) with the platform logging at `debug`, and none is found in what it logged, while the
 * lines themselves are there: one per request.
 */
import { describe, expect, it } from "vitest"
import { callerRequestId } from "../../adapters/http/request-log.ts"
import type { Call } from "../support/net.ts"
import { latestCode, setupApplication, startServer } from "../support/server.ts"
import { forSuite } from "../support/suite.ts"
import { captureLogs } from "./log-capture.ts"

const consoleToken = "console_redaction_5f0e1d2c3b4a69788796a5b4"
const mobile = "+966557319042"
const email = "noura.redaction@shop-example.sa"
const body = "zebra-quartz-distinctive-body-7731"

const logs = captureLogs()
const s = forSuite(() => startServer({ logLevel: "debug", consoleToken }, { jobs: false, logger: logs.layer }))

/** Every call made, so that the lines can be counted. */
let calls = 0
const call: Call = (method, path, opts) => {
  calls++
  return s.call(method, path, opts)
}
const consoleCall = async (method: string, path: string, payload: unknown = {}) => {
  const res = await call(method, `/console/v1${path}`, { key: consoleToken, body: payload })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}

describe("never a key, token, code, secret, full destination number, e-mail address or body in the logs", () => {
  it("each sent through every way in, none of them is in the log output, and every request has its line", async () => {
    // The console: an account, an application, a live key, an account token with an e-mail, a webhook secret.
    const account = await consoleCall("POST", "/accounts", { name: body })
    const app = await consoleCall("POST", `/accounts/${account.id}/applications`, { name: body, approved: true })
    await consoleCall("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 10_000 })
    const liveKey: string = (await consoleCall("POST", `/applications/${app.id}/keys`, { mode: "live" })).key
    const token: string = (await consoleCall("POST", `/accounts/${account.id}/account-tokens`, {
      role: "owner",
      email,
    })).token
    const webhookSecret: string = (await consoleCall("PUT", `/applications/${app.id}/webhook`, {
      url: "http://127.0.0.1:9/hooks",
    })).secret
    expect(webhookSecret).toMatch(/^whsec_/)
    const partner = await consoleCall("POST", "/accounts", { name: "Partner", partner: true })
    const partnerKey: string = (await consoleCall("POST", `/accounts/${partner.id}/keys`, { mode: "partner" })).key

    // Verify: a code sent to the mobile, read through the simulator route, then checked (body), wrongly too.
    const started = await call("POST", "/v1/verify/start", { key: liveKey, body: { to: mobile } })
    expect(started.status).toBe(200)
    calls++ // latestCode's call
    const code = await latestCode(s, mobile)
    await call("POST", "/v1/verify/check", { key: liveKey, body: { id: started.body.id, code } })
    await call("POST", "/v1/verify/check", { key: liveKey, body: { id: started.body.id, code: `${code}9` } })

    const secrets: Record<string, string> = {
      "the live key": liveKey,
      "the account token": token,
      "the console token": consoleToken,
      "the partner key": partnerKey,
      "the verification code": code,
      "the webhook secret": webhookSecret,
      "the mobile number": mobile,
      "the mobile number, national": "0557319042",
      "the e-mail address": email,
      "the body": body,
    }
    const all = Object.values(secrets)

    // No credential, code, number or address can be a request id (16 to 128 of letters, digits, - . :): sent as
    // X-Request-Id, each is replaced by a fresh one. Text of that shape the caller sends as its request id is its id.
    for (const [name, value] of Object.entries(secrets)) {
      if (name !== "the body") expect(callerRequestId(value), name).toBeUndefined()
    }
    // Headers: the credentials where they belong, everything in other fields, X-Request-Id included.
    for (const value of all) {
      const requestId: Record<string, string> = callerRequestId(value) === undefined ? { "x-request-id": value } : {}
      await call("GET", "/healthz", { headers: { "x-note": value, "user-agent": value, ...requestId } })
      await call("GET", `/v1/verify/${started.body.id}`, { headers: { "x-api-key": value } })
      await call("GET", "/v1/account/wallet", { key: value })
    }
    // Query and path, on keyed, console, account, partner and unknown routes.
    for (const value of all) {
      const q = encodeURIComponent(value)
      await call("GET", `/v1/verify/${q}?code=${q}&to=${q}`, { key: liveKey })
      await call("GET", `/console/v1/simulator/sms?to=${q}&q=${q}`, { key: consoleToken })
      await call("GET", `/v1/applications/${q}?email=${q}`, { key: token })
      await call("GET", `/v1/partner/applications/${q}?application=${q}`, { key: partnerKey })
      await call("GET", `/${q}/${q}?${q}=${q}`)
    }
    // Bodies, on every kind of caller.
    const everything = { to: mobile, code, email, note: body, key: liveKey, token, secret: webhookSecret }
    await call("POST", "/v1/verify/start", { key: liveKey, body: everything })
    await call("POST", "/v1/verify/start", { key: liveKey, body: { to: mobile, note: body } })
    await call("POST", "/v1/verify/start", { key: partnerKey, body: { ...everything, application: app.id } })
    await call("POST", "/v1/partner/applications", {
      key: partnerKey,
      body: { name: body, website: "https://shop.example.sa", external_id: email },
    })
    await call("POST", "/v1/operations/applications.unpause", { key: token, body: { application: app.id, note: body } })
    await call("POST", "/v1/account/wallet/topups", { key: token, body: { amount_halalas: 5_000, note: email } })
    await call("POST", `/console/v1/accounts/${account.id}/account-tokens`, {
      key: consoleToken,
      body: { role: "admin", email: `second.${email}` },
    })
    await call("PUT", `/console/v1/simulator/chatmsg/applications/${app.id}/number`, {
      key: consoleToken,
      body: { number: mobile },
    })
    await call("POST", "/v1/verify/start", { key: liveKey, rawBody: `{"to":"${mobile}","broken":${body}` })
    // A provider's port (the chat network), called with the number and the body.
    await call("POST", "/v1/chatmsg/messages", {
      key: liveKey,
      body: { to: mobile, template: body, params: { note: email } },
    })
    await call("GET", "/v1/chatmsg/templates", { key: liveKey })
    // The jobs (webhook deliveries to an endpoint that refuses) run on the simulated clock's advance.
    await consoleCall("POST", "/simulator/clock", { advance_ms: 60_000 })

    const text = logs.text()
    for (const [name, value] of Object.entries(secrets)) {
      expect(text.includes(value), `${name} (${value}) is in the logs`).toBe(false)
    }
    expect(text).not.toContain("557319042")
    expect(logs.requests()).toHaveLength(calls)
    // The debug lines are there too (an SMS sent, a chat network call), without the number.
    expect(logs.lines().some((l) => l.message === "sms sent")).toBe(true)
    expect(logs.lines().some((l) => l.message === "chat_network.templates")).toBe(true)
  })
})
