/**
 * An application's webhook in the console, in Chromium (issue 33): the endpoint set (its signing secret shown
 * once), a test event sent and refused by the receiver, the delivery log with the attempt, a replay delivered.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { useServer } from "../support/server.ts"
import { startReceiver } from "../webhooks/receiver.ts"
import { expectAccessible, expectNoViolations, launch, newPage } from "./browser.ts"

const s = useServer({ webhookAllowPrivate: true })
let browser: Browser

beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

/** The simulated clock's advance runs the jobs that fall due (the webhook dispatcher among them). */
const runJobs = () => s.console("POST", "/simulator/clock", { advance_ms: 1_000 })

describe("webhooks: the endpoint, a test event, the delivery log with each attempt, a replay", () => {
  it("a refused test event is replayed from its log and delivered", async () => {
    let answer = 500
    const receiver = await startReceiver(() => ({ status: answer }))
    try {
      const account = await s.console("POST", "/accounts", { name: "Hooks Co" })
      const app = await s.console("POST", `/accounts/${account.id}/applications`, { name: "Hooks", approved: true })
      const { context, page } = await newPage(browser)
      await page.goto(`${s.baseUrl}/console/applications/${app.id}`)
      await page.getByLabel("Console token").fill(s.consoleToken)
      await page.getByRole("button", { name: "Sign in" }).click()
      await page.getByRole("link", { name: "Webhook" }).click()
      await expectAccessible(page)

      await page.getByLabel("Endpoint URL").fill(receiver.url)
      await page.getByRole("button", { name: "Save the endpoint" }).click()
      const secret = (await page.locator("#new-secret").textContent())!
      expect(secret.length).toBeGreaterThan(20)
      await page.getByRole("link", { name: "Continue" }).click()
      expect(await page.content()).not.toContain(secret)
      expect(await page.getByLabel("Endpoint URL").inputValue()).toBe(receiver.url)

      await page.getByRole("button", { name: "Send a test event" }).click()
      await runJobs()
      await receiver.waitFor(1)
      expect(receiver.received[0].body).toContain("verification.verified")
      await page.reload()
      expect(await page.locator("main table").textContent()).toContain("500")
      await expectAccessible(page)

      answer = 200
      await page.getByRole("button", { name: /^Replay/ }).first().click()
      await runJobs()
      await receiver.waitFor(2)
      await page.reload()
      const log = (await page.locator("main table").textContent())!
      expect(log).toContain("200")
      expect(await page.locator(".delivery-status").first().textContent()).toBe("succeeded")
      expectNoViolations(page)
      await context.close()
    } finally {
      await receiver.close()
    }
  })
})
