/**
 * The console's pages over HTTP (issue 33; docs/decisions.md, "The console as a web app"): the session, the CSRF
 * token of every form, the Content-Security-Policy, the sign-in's refusals and limit, the language, the pages'
 * collisions with the JSON API, and bad input (forged tokens, other records' ids, markup, a 1 MiB form).
 */
import { describe, expect, it } from "vitest"
import { ConsolePages } from "../../core/limits.ts"
import { contentSecurityPolicy, rootOf, safeBack } from "../../adapters/console/serve.tsx"
import { formatDate, formatSar, fromAcceptLanguage } from "../../adapters/console/i18n.ts"
import { halalasOf } from "../../adapters/console/pages/wallet.tsx"
import { useServer } from "../support/server.ts"
import { cookieOf, csrfOf, signIn } from "./web-support.ts"

const s = useServer()

const signInPage = async () => {
  const page = await fetch(`${s.baseUrl}/console/sign-in`)
  return { cookie: cookieOf(page)!, csrf: csrfOf(await page.text()) }
}

const postSignIn = (fields: Record<string, string>, cookie?: string) =>
  fetch(`${s.baseUrl}/console/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...(cookie === undefined ? {} : { cookie }),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  })

/** A pending approval of `applications.unpause`, asked by an admin's account token (the default policy). */
const pendingApproval = async () => {
  const account = await s.console("POST", "/accounts", { name: "Approvals Co" })
  const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Shop", approved: true })
  await s.console("POST", `/applications/${app.id}/pause`)
  const token = await s.console("POST", `/accounts/${account.id}/account-tokens`, {
    role: "admin",
    email: "sara@example.com",
  })
  const asked = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token.token, body: {} })
  expect(asked.status).toBe(428)
  return { account, app, token, asked, url: asked.body.human_action.url as string, id: asked.body.approval.id }
}

describe("pages are served under /console/, beside the console's JSON API under /console/v1/", () => {
  it("an unknown session is sent to the sign-in page, with the way back", async () => {
    const r = await fetch(`${s.baseUrl}/console/approvals/6f1c1a1e-0000-4000-8000-000000000000`, {
      redirect: "manual",
    })
    expect(r.status).toBe(303)
    expect(r.headers.get("location")).toBe("../sign-in?next=approvals%2F6f1c1a1e-0000-4000-8000-000000000000")
  })
  it("the JSON API answers as before", async () => {
    const r = await s.call("POST", "/console/v1/accounts", { key: s.consoleToken, body: { name: "Still JSON" } })
    expect(r.status).toBe(201)
    expect(r.body.data.name).toBe("Still JSON")
  })
  it("links are relative, so a prefix an app mounts the platform at keeps working", () => {
    expect(rootOf("/console")).toBe("console/")
    expect(rootOf("/console/")).toBe("./")
    expect(rootOf("/console/accounts")).toBe("./")
    expect(rootOf("/console/approvals/x")).toBe("../")
    expect(rootOf("/console/approvals/x/decide")).toBe("../../")
  })
  it("a way back is a relative path of plain segments, nothing else", () => {
    expect(safeBack("approvals/abc-1")).toBe("approvals/abc-1")
    for (const bad of ["//evil.example", "https://evil.example", "../x", "/abs", "a/../b", "a\\b"]) {
      expect(safeBack(bad)).toBe("")
    }
  })
})

describe("every page is sent with a strict Content-Security-Policy: no inline script or style", () => {
  it("the sign-in page: the policy, nosniff, no framing, no caching; its script and style are files", async () => {
    const r = await fetch(`${s.baseUrl}/console/sign-in`)
    expect(r.headers.get("content-security-policy")).toBe(contentSecurityPolicy)
    expect(contentSecurityPolicy).not.toContain("unsafe-inline")
    expect(r.headers.get("x-content-type-options")).toBe("nosniff")
    expect(r.headers.get("x-frame-options")).toBe("DENY")
    expect(r.headers.get("cache-control")).toBe("no-store")
    const text = await r.text()
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(text).not.toMatch(/<style|\sstyle=/)
    expect(text).not.toMatch(/\son[a-z]+=/)
    const css = await fetch(`${s.baseUrl}/console/assets/console.css`)
    expect(css.headers.get("content-type")).toContain("text/css")
    const js = await fetch(`${s.baseUrl}/console/assets/console.js`)
    expect(js.headers.get("content-type")).toContain("text/javascript")
  })
})

describe("sign-in with the console token gives a session cookie: HttpOnly, SameSite=Strict, a lifetime", () => {
  it("the right token: 303 and the cookie; the token appears in no answer", async () => {
    const { cookie, csrf } = await signInPage()
    const r = await postSignIn({ _csrf: csrf, token: s.consoleToken, next: "accounts" }, cookie)
    expect(r.status).toBe(303)
    expect(r.headers.get("location")).toBe("./accounts")
    const set = r.headers.get("set-cookie")!
    expect(set).toMatch(/^console_session=[0-9a-f]{32}\.\d+\.[0-9a-f]+; HttpOnly; SameSite=Strict; Max-Age=28800$/)
    expect(set).not.toContain(s.consoleToken)
    expect(r.headers.get("location")).not.toContain(s.consoleToken)
  })
  it("behind https (X-Forwarded-Proto), the cookie is Secure", async () => {
    const { cookie, csrf } = await signInPage()
    const r = await fetch(`${s.baseUrl}/console/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", "x-forwarded-proto": "https" },
      body: new URLSearchParams({ _csrf: csrf, token: s.consoleToken }).toString(),
    })
    expect(r.headers.get("set-cookie")).toContain("; Secure")
  })
  it("a wrong token is refused with a page (401), which does not echo it", async () => {
    const { cookie, csrf } = await signInPage()
    const r = await postSignIn({ _csrf: csrf, token: "not-the-token-123" }, cookie)
    expect(r.status).toBe(401)
    expect(r.headers.get("content-type")).toContain("text/html")
    expect(r.headers.get("set-cookie")).toBeNull()
    const text = await r.text()
    expect(text).toContain("That token is not the console token.")
    expect(text).not.toContain("not-the-token-123")
    expect(text).not.toContain(s.consoleToken)
  })
  it("a sign-in without the sign-in form's CSRF token is refused (403), even with the right token", async () => {
    const { cookie } = await signInPage()
    const r = await postSignIn({ _csrf: "0".repeat(64), token: s.consoleToken }, cookie)
    expect(r.status).toBe(403)
    expect(r.headers.get("set-cookie") ?? "").not.toContain("console_session")
    const missing = await postSignIn({ token: s.consoleToken })
    expect(missing.status).toBe(403)
  })
  it("sign-out ends the session: the same cookie is sent to the sign-in page again", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    expect((await b.get("/console/accounts")).status).toBe(200)
    const out = await b.post("/console/sign-out", { _csrf: b.csrf })
    expect(out.status).toBe(303)
    expect(out.headers.get("set-cookie")).toMatch(/^console_session=; HttpOnly; SameSite=Strict; Max-Age=0/)
    const after = await b.get("/console/accounts")
    expect(after.status).toBe(303)
    expect(after.headers.get("location")).toBe("./sign-in?next=accounts")
  })
  it("a session ends after its lifetime (the simulated clock moved past it)", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    expect((await b.get("/console/accounts")).status).toBe(200)
    await s.console("POST", "/simulator/clock", { advance_ms: ConsolePages.sessionMs + 1000 })
    const expired = await b.post("/console/accounts", { _csrf: b.csrf, name: "After expiry" })
    expect(expired.status).toBe(401)
    expect(await expired.text()).toContain("Your session has ended")
    expect((await b.get("/console/accounts")).status).toBe(303)
  })
  it("a forged session cookie is no session", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const [id, exp] = b.session.split("=")[1].split(".")
    const forged = `console_session=${id}.${Number(exp) + 3_600_000}.${"ab".repeat(32)}`
    const r = await fetch(`${s.baseUrl}/console/accounts`, { redirect: "manual", headers: { cookie: forged } })
    expect(r.status).toBe(303)
  })
})

describe("a wrong token is slowed per address, as the API's limit counts a credential's requests", () => {
  it(`after ${ConsolePages.signInAttempts} wrong tokens in a window: 429 with Retry-After, the right token too`, async () => {
    // Every test request comes from 127.0.0.1: move to a fresh window first, so this test owns its count.
    await s.console("POST", "/simulator/clock", { advance_ms: 61_000 })
    const { cookie, csrf } = await signInPage()
    for (let i = 0; i < ConsolePages.signInAttempts; i++) {
      expect((await postSignIn({ _csrf: csrf, token: `wrong-${i}-xxxxxxxxxx` }, cookie)).status).toBe(401)
    }
    const limited = await postSignIn({ _csrf: csrf, token: s.consoleToken }, cookie)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await limited.text()).toContain("Too many sign-in attempts")
    await s.console("POST", "/simulator/clock", { advance_ms: 61_000 })
    expect((await postSignIn({ _csrf: csrf, token: s.consoleToken }, cookie)).status).toBe(303)
  })
})

describe("every form carries a CSRF token: a forged or missing one changes nothing", () => {
  it("a forged token: 403 page, no account made", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const name = `Forged ${Date.now()}`
    const forged = await b.post("/console/accounts", { _csrf: "f".repeat(64), name })
    expect(forged.status).toBe(403)
    expect(await forged.text()).toContain("This form has expired or did not come from the console")
    const missing = await b.post("/console/accounts", { name })
    expect(missing.status).toBe(403)
    expect(await (await b.get("/console/accounts")).text()).not.toContain(name)
  })
  it("another session's token is not this session's", async () => {
    const one = await signIn(s.baseUrl, s.consoleToken)
    const two = await signIn(s.baseUrl, s.consoleToken)
    expect(one.csrf).not.toBe(two.csrf)
    expect((await one.post("/console/accounts", { _csrf: two.csrf, name: "Cross" })).status).toBe(403)
  })
  it("a form that is not urlencoded is refused", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const r = await b.post("/console/accounts", { _csrf: b.csrf, name: "x" }, { "content-type": "text/plain" })
    expect(r.status).toBe(403)
  })
})

describe("bad input: a clear page, nothing changed, nothing executed", () => {
  it("a 1 MiB form: 413 page, nothing made", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const big = "a".repeat(1024 * 1024 - 200)
    const r = await b.post("/console/accounts", { _csrf: b.csrf, name: big })
    expect(r.status).toBe(413)
    expect(await r.text()).toContain("The form is larger than the console accepts")
  })
  it("HTML and script in a name are shown as text", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const name = `<script>alert("x")</script><img src=x onerror=alert(1)>`
    const made = await b.post("/console/accounts", { _csrf: b.csrf, name })
    expect(made.status).toBe(303)
    const page = await (await b.get(`/console/${made.headers.get("location")!.replace(/^\.\//, "")}`)).text()
    expect(page).not.toContain("<script>alert")
    expect(page).not.toContain("<img src=x")
    expect(page).toContain("&lt;script>alert(&quot;x&quot;)&lt;/script>&lt;img src=x onerror=alert(1)>")
  })
  it("an id of nothing, or not an id: 404 page", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const none = await b.get("/console/applications/6f1c1a1e-0000-4000-8000-000000000000")
    expect(none.status).toBe(404)
    expect(none.headers.get("content-type")).toContain("text/html")
    expect((await b.get("/console/approvals/not-an-id")).status).toBe(404)
  })
  it("another account's key revoked from an account's page is refused by the id, not the page it came from", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const r = await b.post("/console/keys/6f1c1a1e-0000-4000-8000-000000000000/revoke", {
      _csrf: b.csrf,
      back: "//evil.example",
    })
    expect(r.status).toBe(404)
  })
  it("a form field the operation's Schema refuses: the field and its reason on the page", async () => {
    const b = await signIn(s.baseUrl, s.consoleToken)
    const r = await b.post("/console/accounts", { _csrf: b.csrf, name: "x".repeat(500) })
    expect(r.status).toBe(400)
    expect(await r.text()).toContain("<code>name</code>")
  })
})

describe("an application in review: approved, or rejected with a reason code (its note shown as text)", () => {
  it("reject with a reason code: the status is rejected; approve from there makes it active", async () => {
    const account = await s.console("POST", "/accounts", { name: "Review Co" })
    const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "In review" })
    const b = await signIn(s.baseUrl, s.consoleToken)
    const page = await (await b.get(`/console/applications/${app.id}`)).text()
    expect(page).toContain('name="reason_code"')
    const refused = await b.post(`/console/applications/${app.id}/reject`, { _csrf: b.csrf, reason_code: "nope" })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain("<code>reason_code</code>")
    const code = /<option value="([a-z_]+)">/.exec(page)![1]
    const rejected = await b.post(`/console/applications/${app.id}/reject`, {
      _csrf: b.csrf,
      reason_code: code,
      note: "<i>logo</i>",
    })
    expect(rejected.status).toBe(303)
    expect(await (await b.get(`/console/applications/${app.id}`)).text()).toContain(
      '<dd id="application-status">rejected',
    )
    expect((await b.post(`/console/applications/${app.id}/approve`, { _csrf: b.csrf })).status).toBe(303)
    expect(await (await b.get(`/console/applications/${app.id}`)).text()).toContain(
      '<dd id="application-status">active',
    )
  })
})

describe("approvals: /console/approvals/{id} is the 428's human_action.url", () => {
  it("the page says the operation, who asked (member, role), the input and the expiry; approve, then resend runs", async () => {
    const { app, token, url, id } = await pendingApproval()
    expect(url).toMatch(/\/console\/approvals\/[0-9a-f-]{36}$/)
    const b = await signIn(s.baseUrl, s.consoleToken)
    const path = new URL(url).pathname
    const page = await (await b.get(path)).text()
    expect(page).toContain("applications.unpause")
    expect(page).toContain("sara@example.com")
    expect(page).toContain("admin")
    expect(page).toContain(app.id)
    expect(page).toContain("Expires at")
    expect(page).toContain('value="approve"')
    const list = await (await b.get("/console/approvals")).text()
    expect(list).toContain(`approvals/${id}`)
    const decided = await b.post(`${path}/decide`, { _csrf: b.csrf, decision: "approve", note: "<b>ok</b>" })
    expect(decided.status).toBe(303)
    const after = await (await b.get(path)).text()
    expect(after).toContain("approved")
    expect(after).toContain("&lt;b>ok&lt;/b>")
    expect(after).not.toContain('value="approve"')
    const resent = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token.token, body: {} })
    expect(resent.status).toBe(200)
    const used = await (await b.get(path)).text()
    expect(used).toContain("used: the request ran")
    expect(used).not.toContain('<form method="post" action="../approvals')
  })
  it("deny: the resend answers 403 approval_denied; a second decision is refused with a page", async () => {
    const { app, token, url } = await pendingApproval()
    const b = await signIn(s.baseUrl, s.consoleToken)
    const path = new URL(url).pathname
    expect((await b.post(`${path}/decide`, { _csrf: b.csrf, decision: "deny" })).status).toBe(303)
    const resent = await s.call("POST", `/v1/applications/${app.id}/unpause`, { key: token.token, body: {} })
    expect(resent.status).toBe(403)
    expect(resent.body.error).toBe("approval_denied")
    const again = await b.post(`${path}/decide`, { _csrf: b.csrf, decision: "approve" })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain("only a pending one is decided")
  })
  it("a forged CSRF token decides nothing", async () => {
    const { url, id } = await pendingApproval()
    const b = await signIn(s.baseUrl, s.consoleToken)
    const path = new URL(url).pathname
    expect((await b.post(`${path}/decide`, { _csrf: "1".repeat(64), decision: "approve" })).status).toBe(403)
    const shown = await s.call("GET", `/v1/approvals/${id}`, { key: (await pendingApproval()).token.token })
    expect(shown.status).toBe(404) // another account's token sees nothing of it
    expect(await (await b.get(path)).text()).toContain("pending: waiting for a decision")
  })
  it("an expired approval says so and offers nothing", async () => {
    const { url } = await pendingApproval()
    await s.console("POST", "/simulator/clock", { advance_ms: 24 * 3_600_000 + 1000 })
    const b = await signIn(s.baseUrl, s.consoleToken)
    const page = await (await b.get(new URL(url).pathname)).text()
    expect(page).toContain("This approval is expired")
    expect(page).not.toContain('value="approve"')
  })
})

describe("Arabic and English: Accept-Language, then the switch; Arabic right-to-left", () => {
  it("Accept-Language ar: lang=ar dir=rtl", async () => {
    const r = await fetch(`${s.baseUrl}/console/sign-in`, { headers: { "accept-language": "ar-SA,en;q=0.5" } })
    expect(await r.text()).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/)
  })
  it("the switch sets the language for the next pages and goes back", async () => {
    const r = await fetch(`${s.baseUrl}/console/language?to=ar&back=accounts`, { redirect: "manual" })
    expect(r.status).toBe(303)
    expect(r.headers.get("location")).toBe("./accounts")
    const cookie = cookieOf(r)!
    expect(cookie).toBe("console_lang=ar")
    const page = await fetch(`${s.baseUrl}/console/sign-in`, { headers: { cookie, "accept-language": "en" } })
    expect(await page.text()).toContain('dir="rtl"')
  })
  it("the language of Accept-Language by weight, English otherwise", () => {
    expect(fromAcceptLanguage("fr, ar;q=0.9, en;q=0.8")).toBe("ar")
    expect(fromAcceptLanguage("en;q=0.1, ar;q=0.2")).toBe("ar")
    expect(fromAcceptLanguage("de")).toBe("en")
    expect(fromAcceptLanguage(undefined)).toBe("en")
  })
  it("riyals typed in a form are read as halalas, exactly", () => {
    expect(halalasOf("250.5")).toBe(25_050)
    expect(halalasOf("250,05")).toBe(25_005)
    // Arabic-Indic and Persian digits are digits: a person on an Arabic keyboard types them.
    expect(halalasOf("١٠٠٫٥")).toBe(10_050)
    expect(halalasOf("۱۲")).toBe(1_200)
    expect(halalasOf("7")).toBe(700)
    for (const bad of ["", "1.234", "-5", "1e3", "abc"]) expect(halalasOf(bad)).toBeUndefined()
  })
  it("halalas as SAR with two decimals; dates in Riyadh time", () => {
    expect(formatSar("en", 12345)).toMatch(/SAR\s?123\.45/)
    expect(formatSar("en", 5)).toMatch(/0\.05/)
    expect(formatSar("ar", 12345)).toContain("١٢٣٫٤٥")
    // 21:30 UTC is 00:30 the next day in Riyadh (UTC+3).
    expect(formatDate("en", Date.UTC(2026, 0, 1, 21, 30))).toContain("2 Jan 2026, 00:30")
  })
})
