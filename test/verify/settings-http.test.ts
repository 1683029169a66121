/**
 * Verify settings through the console (spec Sections 2 and 8, DECISIONS 2 and 3): bounds, defaults, and
 * code_length / code_lifetime_minutes / max_attempts taking effect on the next start.
 */
import { describe, expect, it } from "vitest"
import { latestCode, setupApplication, useServer } from "../support/server.ts"
import { advance, putSettings } from "./http-harness.ts"

const s = useServer()

const to = "+966551234567"
const startCode = async (key: string, number = to) => {
  const started = await s.call("POST", "/v1/verify/start", { key, body: { to: number } })
  expect(started.status).toBe(200)
  return { v: started.body, code: await latestCode(s, number) }
}

describe("settings defaults: code_length 6, code_lifetime_minutes 10, max_attempts 3, hourly cap 5, IP cap 20, no spend cap", () => {
  it("PUT with an empty body answers the full settings, all defaults", async () => {
    const { app } = await setupApplication(s)
    const res = await putSettings(s, app.id, {})
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      code_length: 6,
      code_lifetime_minutes: 10,
      max_attempts: 3,
      hourly_cap_per_destination: 5,
      max_per_ip_per_hour: 20,
      daily_spend_cap_halalas: null,
    })
  })

  it("a PUT changes only the fields it names and answers the full settings", async () => {
    const { app } = await setupApplication(s)
    await putSettings(s, app.id, { max_attempts: 5 })
    const res = await putSettings(s, app.id, { code_length: 8, daily_spend_cap_halalas: 900 })
    expect(res.body.data).toMatchObject({
      code_length: 8,
      max_attempts: 5,
      code_lifetime_minutes: 10,
      daily_spend_cap_halalas: 900,
    })
    const cleared = await putSettings(s, app.id, { daily_spend_cap_halalas: null })
    expect(cleared.body.data.daily_spend_cap_halalas).toBeNull()
  })
})

describe("settings bounds: code_length 4-8, code_lifetime_minutes 1-15, max_attempts 1-5; out of bounds: 400 invalid_request with fields", () => {
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<unknown>, ReadonlyArray<number>]> = [
    ["code_length", [3, 9, 0, -6, 6.5, "6", null, true], [4, 8]],
    ["code_lifetime_minutes", [0, 16, 10.5, "10", null], [1, 15]],
    ["max_attempts", [0, 6, 2.5, "3", null], [1, 5]],
  ]

  for (const [field, refused, accepted] of cases) {
    it(`${field}: ${refused.map((v) => JSON.stringify(v)).join(", ")} are refused naming the field; ${accepted.join(" and ")} are accepted`, async () => {
      const { app } = await setupApplication(s)
      for (const value of refused) {
        const res = await putSettings(s, app.id, { [field]: value })
        expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400)
        expect(res.body.error).toBe("invalid_request")
        expect(Object.keys(res.body.fields)).toEqual([field])
      }
      for (const value of accepted) {
        const res = await putSettings(s, app.id, { [field]: value })
        expect(res.status).toBe(200)
        expect(res.body.data[field]).toBe(value)
      }
    })
  }

  it("every out-of-bounds field is named at once, and a refused PUT changes nothing", async () => {
    const { app } = await setupApplication(s)
    const res = await putSettings(s, app.id, {
      code_length: 9,
      code_lifetime_minutes: 0,
      max_attempts: 6,
      hourly_cap_per_destination: 0,
      max_per_ip_per_hour: 0,
      daily_spend_cap_halalas: -1,
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.any(String) })
    expect(Object.keys(res.body.fields).sort()).toEqual([
      "code_length",
      "code_lifetime_minutes",
      "daily_spend_cap_halalas",
      "hourly_cap_per_destination",
      "max_attempts",
      "max_per_ip_per_hour",
    ])
    const half = await putSettings(s, app.id, { code_length: 4, max_attempts: 9 })
    expect(half.status).toBe(400)
    expect((await putSettings(s, app.id, {})).body.data).toMatchObject({ code_length: 6, max_attempts: 3 })
  })

  it("an unknown application answers 404 not_found", async () => {
    const res = await putSettings(s, "00000000-0000-4000-8000-000000000000", { code_length: 6 })
    expect(res.status).toBe(404)
    expect(res.body.error).toBe("not_found")
  })
})

describe("code_length takes effect: the next code has that many digits", () => {
  for (const length of [4, 8]) {
    it(`code_length ${length}: the SMS carries a ${length}-digit code that verifies`, async () => {
      const { app, key } = await setupApplication(s)
      await putSettings(s, app.id, { code_length: length })
      const number = length === 4 ? "+966551000004" : "+966551000008"
      const { code, v } = await startCode(key, number)
      expect(code).toMatch(new RegExp(`^\\d{${length}}$`))
      const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: v.id, code } })
      expect(checked.body.status).toBe("verified")
    })
  }
})

describe("code_lifetime_minutes takes effect: expires_at is created_at plus the lifetime", () => {
  it("lifetime 1: expires_at one minute after created_at; the code expires after a minute on the clock", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { code_lifetime_minutes: 1 })
    const { code, v } = await startCode(key, "+966551000011")
    expect(Date.parse(v.expires_at) - Date.parse(v.created_at)).toBe(60_000)
    await advance(s, 59_999)
    expect((await s.call("GET", `/v1/verify/${v.id}`, { key })).body.status, "a read at 0:59.999").toBe("pending")
    await advance(s, 1)
    expect((await s.call("GET", `/v1/verify/${v.id}`, { key })).body.status, "a read at 1:00").toBe("expired")
    const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: v.id, code } })
    expect(checked.status).toBe(200)
    expect(checked.body.status).toBe("expired")
  })

  it("lifetime 15: the code still verifies at 14:59", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { code_lifetime_minutes: 15 })
    const { code, v } = await startCode(key, "+966551000015")
    expect(Date.parse(v.expires_at) - Date.parse(v.created_at)).toBe(15 * 60_000)
    await advance(s, 15 * 60_000 - 1_000)
    const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: v.id, code } })
    expect(checked.body.status).toBe("verified")
  })
})

describe("max_attempts takes effect: the wrong code that uses the last attempt fails", () => {
  it("max_attempts 1: the first wrong code answers failed", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { max_attempts: 1 })
    const { v } = await startCode(key, "+966551000021")
    const checked = await s.call("POST", "/v1/verify/check", { key, body: { id: v.id, code: "x" } })
    expect(checked.body).toMatchObject({ status: "failed", attempts: 1 })
  })

  it("max_attempts 5: four wrong codes answer pending, the fifth failed", async () => {
    const { app, key } = await setupApplication(s)
    await putSettings(s, app.id, { max_attempts: 5 })
    const { v } = await startCode(key, "+966551000025")
    for (let i = 1; i <= 4; i++) {
      const res = await s.call("POST", "/v1/verify/check", { key, body: { id: v.id, code: "x" } })
      expect(res.body).toMatchObject({ status: "pending", attempts: i })
    }
    const last = await s.call("POST", "/v1/verify/check", { key, body: { id: v.id, code: "x" } })
    expect(last.body).toMatchObject({ status: "failed", attempts: 5 })
  })
})
