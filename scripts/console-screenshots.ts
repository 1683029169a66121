/**
 * Screenshots of the console's pages in English and Arabic, written to docs/console/ (`npx tsx
 * scripts/console-screenshots.ts`): the platform on the memory store with the simulators, a few records made
 * through the console's JSON API, then each page opened in Chromium (CHROMIUM_PATH or /usr/bin/chromium).
 */
import { mkdirSync } from "node:fs"
import { Effect, Option } from "effect"
import { chromium } from "playwright-core"
import { settingsFromEnv } from "../adapters/config.ts"
import { close, listen, nodeServer } from "../adapters/http/node.ts"
import { makePlatform } from "../adapters/platform.ts"

const out = new URL("../docs/console/", import.meta.url)
mkdirSync(out, { recursive: true })

const consoleToken = "console-screenshots-token"
const settings = {
  ...(await Effect.runPromise(settingsFromEnv)),
  store: "memory" as const,
  clock: "simulated" as const,
  smsProvider: "simulator",
  consoleToken,
  consoleTokenGenerated: false,
  databaseUrl: Option.none(),
}
const platform = await makePlatform(settings, { jobs: false, demo: false })
const server = nodeServer(platform.dispatch)
const port = await listen(server, 0, "127.0.0.1")
const base = `http://127.0.0.1:${port}`

const api = async (method: string, path: string, body: unknown = {}) => {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${consoleToken}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  })
  return (await r.json()).data
}
const account = await api("POST", "/console/v1/accounts", { name: "Al Noor Trading" })
const app = await api("POST", `/console/v1/accounts/${account.id}/applications`, { name: "Noor Shop", approved: true })
await api("POST", `/console/v1/accounts/${account.id}/wallet/credit`, { amount_halalas: 125_050 })
await api("POST", `/console/v1/applications/${app.id}/keys`, { mode: "live" })
await api("POST", `/console/v1/applications/${app.id}/pause`)
const token = await api("POST", `/console/v1/accounts/${account.id}/account-tokens`, {
  role: "admin",
  email: "sara@example.com",
})
// The wallet's proformas, settings and usage chart; the webhook's endpoint (issue 33).
const v1 = async (method: string, path: string, key: string, body: unknown = {}) =>
  await (await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  })).json()
await api("PUT", `/console/v1/accounts/${account.id}/wallet/settings`, {
  low_balance_alert_halalas: 5_000,
  auto_topup: { enabled: true, threshold_halalas: 2_000, amount_halalas: 20_000 },
})
let phone = 0
const sends = async (name: string, counts: ReadonlyArray<number>) => {
  const shop = await api("POST", `/console/v1/accounts/${account.id}/applications`, { name, approved: true })
  return { key: (await api("POST", `/console/v1/applications/${shop.id}/keys`, { mode: "live" })).key, counts }
}
const shops = [await sends("Noor Pay", [4, 7, 3]), await sends("Noor Rewards", [2, 3, 1])]
for (let month = 0; month < 3; month++) {
  for (const shop of shops) {
    for (let i = 0; i < shop.counts[month]; i++) {
      const sent = await v1("POST", "/v1/verify/start", shop.key, { to: `+9665543${String(++phone).padStart(5, "0")}` })
      if (sent.id === undefined) throw new Error(`no code sent: ${JSON.stringify(sent)}`)
    }
  }
  if (month < 2) await api("POST", "/console/v1/simulator/clock", { advance_ms: 31 * 86_400_000 })
}
const proforma = await v1("POST", "/v1/account/wallet/proformas", token.token, {
  amount_halalas: 500_000,
  buyer: { name: "Al Noor Trading Co.", vat_number: "300000000000003" },
})
if (proforma.data === undefined) throw new Error(`no proforma: ${JSON.stringify(proforma)}`)
await api("PUT", `/console/v1/applications/${app.id}/webhook`, { url: "https://hooks.example.com/noor" })
const asked = await (await fetch(`${base}/v1/applications/${app.id}/unpause`, {
  method: "POST",
  headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
  body: "{}",
})).json()
const approvalPath = new URL(asked.human_action.url).pathname
// Partner clients in review: a new one with its logo, and one whose website changed after approval.
const partner = await api("POST", "/console/v1/accounts", { name: "Souq Partners", partner: true })
const partnerKey = (await api("POST", `/console/v1/accounts/${partner.id}/keys`, { mode: "partner" })).key
const partnerApi = async (path: string, body: unknown) =>
  await (await fetch(`${base}/v1/partner${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${partnerKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  })).json()
await partnerApi("/applications", {
  name: "Fresh Bakery",
  website: "https://fresh-bakery.example",
  external_id: "merchant-17",
  logo:
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
})
const moved = await partnerApi("/applications", { name: "Oud House", website: "https://oud.example" })
await api("POST", `/console/v1/applications/${moved.id}/approve`)
await partnerApi(`/applications/${moved.id}`, { website: "https://oud-house.example" })

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
})
const pages: ReadonlyArray<[string, string]> = [
  ["sign-in", "/console/sign-in"],
  ["approval", approvalPath],
  ["approvals", "/console/approvals"],
  ["accounts", "/console/accounts"],
  ["account", `/console/accounts/${account.id}`],
  ["application", `/console/applications/${app.id}`],
  ["wallet", `/console/accounts/${account.id}/wallet`],
  ["webhook", `/console/applications/${app.id}/webhook`],
  ["clock", "/console/simulator/clock"],
  ["sms-inbox", "/console/simulator/sms?to=%2B966554300020"],
  ["verify-settings", `/console/applications/${app.id}/verify`],
  ["reviews", "/console/reviews"],
]
try {
  for (const locale of ["en", "ar"]) {
    const context = await browser.newContext({
      locale,
      extraHTTPHeaders: { "accept-language": locale },
      viewport: { width: 1100, height: 800 },
    })
    const page = await context.newPage()
    await page.goto(`${base}/console/sign-in`)
    await page.screenshot({ path: new URL(`sign-in-${locale}.png`, out).pathname })
    await page.locator("#token").fill(consoleToken)
    await page.locator("form.stack button[type=submit]").click()
    await page.waitForURL((u) => !u.pathname.endsWith("/sign-in"))
    for (const [name, path] of pages.slice(1)) {
      await page.goto(`${base}${path}`)
      await page.screenshot({ path: new URL(`${name}-${locale}.png`, out).pathname, fullPage: true })
    }
    await context.close()
  }
} finally {
  await browser.close()
  await close(server)
  await platform.dispose()
}
console.log(`screenshots written to ${out.pathname}`)
