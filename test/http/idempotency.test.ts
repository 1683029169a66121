/**
 * `Idempotency-Key` (DECISIONS 4, spec Limits: "1 to 128 printable ASCII characters; scoped to the key;
 * kept 24 hours") over HTTP against the in-process server (memory store, simulators, simulated clock).
 */
import { connect } from "node:net"
import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import type { AccountId } from "../../core/shared/brands.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { phone } from "../support/phone.ts"
import { latestCode, setupApplication, useServer } from "../support/server.ts"

const s = useServer()

const smsCount = async (to: string): Promise<number> =>
  (await s.call("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, { key: s.consoleToken })).body.data
    .length

/** The account's ledger, summed since the beginning. */
const ledger = (accountId: string) =>
  s.platform.runtime.runPromise(
    Effect.flatMap(WalletRepo, (w) =>
      Effect.all({ summary: w.summary(accountId as AccountId, 0), balance: w.balance(accountId as AccountId) })),
  )

const start = (key: string, idem: string | undefined, body: unknown) =>
  s.call("POST", "/v1/verify/start", {
    key,
    body,
    ...(idem === undefined ? {} : { headers: { "idempotency-key": idem } }),
  })

/** A start written byte by byte on a socket, so that header bytes fetch refuses to send (DEL, raw UTF-8) reach the server. */
const rawStart = (key: string, idem: string, body: string) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const url = new URL(s.baseUrl)
    const socket = connect(Number(url.port), url.hostname)
    const chunks: Array<Buffer> = []
    socket.on("data", (c: Buffer) => chunks.push(c))
    socket.on("error", reject)
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1")
      const split = text.indexOf("\r\n\r\n")
      const head = text.slice(0, split)
      let rest = text.slice(split + 4)
      if (/transfer-encoding: chunked/i.test(head)) {
        let out = ""
        for (;;) {
          const eol = rest.indexOf("\r\n")
          const size = parseInt(rest.slice(0, eol), 16)
          if (!size) break
          out += rest.slice(eol + 2, eol + 2 + size)
          rest = rest.slice(eol + 2 + size + 2)
        }
        rest = out
      }
      resolve({ status: Number(head.split(" ")[1]), body: JSON.parse(rest) })
    })
    const payload = Buffer.from(body, "utf8")
    socket.write(Buffer.concat([
      Buffer.from(
        `POST /v1/verify/start HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\nIdempotency-Key: ${idem}\r\n\r\n`,
        "latin1",
      ),
      payload,
    ]))
  })

const idemKey = () => `idem-${crypto.randomUUID()}`

describe('"Same key, same method, path and body: the stored answer (status, body) with `Idempotent-Replayed: true`, nothing runs again"', () => {
  it("a replayed start answers the original 200 and body with Idempotent-Replayed: true; one SMS, one charge", async () => {
    const { account, key } = await setupApplication(s, { balance: 1_000 })
    const to = phone()
    const k = idemKey()
    const first = await start(key, k, { to })
    expect(first.status).toBe(200)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    for (let i = 0; i < 3; i++) {
      const again = await start(key, k, { to })
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"))
    }
    expect(await smsCount(to)).toBe(1)
    const { summary, balance } = await ledger(account.id)
    expect(summary.charges).toBe(9)
    expect(balance).toBe(1_000 - 9)
  })

  it("a replayed check counts no second attempt", async () => {
    const { key } = await setupApplication(s)
    const started = await start(key, undefined, { to: phone() })
    const k = idemKey()
    const body = { id: started.body.id, code: "00000000" }
    const wrong = await s.call("POST", "/v1/verify/check", { key, body, headers: { "idempotency-key": k } })
    expect(wrong.body.attempts).toBe(1)
    const replay = await s.call("POST", "/v1/verify/check", { key, body, headers: { "idempotency-key": k } })
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(wrong.body)
    expect((await s.call("GET", `/v1/verify/${started.body.id}`, { key })).body.attempts).toBe(1)
  })

  it("token-authenticated writes too: an account token's unpause replays with Idempotent-Replayed: true", async () => {
    const { account, app } = await setupApplication(s)
    const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`, {})).token as string
    // Unpausing needs an approval by default (DECISIONS 11); this account's policy asks none.
    await s.console("PUT", `/accounts/${account.id}/approval-policy`, { operations: [] })
    const k = idemKey()
    const path = `/v1/applications/${app.id}/unpause`
    const first = await s.call("POST", path, { key: token, body: {}, headers: { "idempotency-key": k } })
    expect(first.status).toBe(200)
    const again = await s.call("POST", path, { key: token, body: {}, headers: { "idempotency-key": k } })
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    const reused = await s.call("POST", path, { key: token, rawBody: "{ }", headers: { "idempotency-key": k } })
    expect(reused.status).toBe(409)
    expect(reused.body).toEqual({ error: "idempotency_key_reused", message: expect.any(String) })
    const malformed = await s.call("POST", path, {
      key: token,
      body: {},
      headers: { "idempotency-key": "x".repeat(129) },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error).toBe("invalid_request")
  })

  it("a replay still passes the order of checks first: once the key is revoked it answers 401, not the stored answer", async () => {
    const { key, keyId } = await setupApplication(s)
    const k = idemKey()
    const to = phone()
    expect((await start(key, k, { to })).status).toBe(200)
    await s.console("DELETE", `/keys/${keyId}`)
    const res = await start(key, k, { to })
    expect(res.status).toBe(401)
    expect(res.headers.get("idempotent-replayed")).toBeNull()
  })
})

describe('"Same key, other request: `409 idempotency_key_reused`" — "Same body" means the same bytes', () => {
  it("another body, the same JSON written with other bytes, another path or another query answer 409 idempotency_key_reused and run nothing", async () => {
    const { key } = await setupApplication(s)
    const to = phone()
    const k = idemKey()
    const first = await s.call("POST", "/v1/verify/start", {
      key,
      rawBody: `{"to":"${to}"}`,
      headers: { "idempotency-key": k },
    })
    expect(first.status).toBe(200)
    const other = phone()
    for (
      const [path, rawBody] of [
        ["/v1/verify/start", `{"to":"${other}"}`],
        ["/v1/verify/start", `{ "to": "${to}" }`],
        ["/v1/verify/start?x=1", `{"to":"${to}"}`],
        ["/v1/verify/check", `{"to":"${to}"}`],
        [`/v1/verify/${first.body.id}/cancel`, `{"to":"${to}"}`],
      ]
    ) {
      const res = await s.call("POST", path, { key, rawBody, headers: { "idempotency-key": k } })
      expect(res.status, `${path} ${rawBody}`).toBe(409)
      expect(res.body).toEqual({ error: "idempotency_key_reused" })
    }
    expect(await smsCount(other)).toBe(0)
    expect((await s.call("GET", `/v1/verify/${first.body.id}`, { key })).body.status).toBe("pending") // the cancel did not run
  })
})

describe('"Same key while the first is still running: `409 idempotency_in_progress`"', () => {
  it("while the first start waits for the store, the same request answers 409 idempotency_in_progress; afterwards it replays", async () => {
    const { key } = await setupApplication(s)
    const to = phone()
    const k = idemKey()
    const runtime = s.platform.runtime
    // Hold the memory store's one transaction permit: the first start claims the key, then waits for it.
    const gate = await runtime.runPromise(Deferred.make<void>())
    const holding = await runtime.runPromise(Deferred.make<void>())
    const holder = runtime.runFork(
      Effect.flatMap(
        Transactor,
        (tx) => tx.withTransaction(Effect.zipRight(Deferred.succeed(holding, undefined), Deferred.await(gate))),
      ),
    )
    await runtime.runPromise(Deferred.await(holding))
    try {
      const first = start(key, k, { to })
      await new Promise((r) => setTimeout(r, 200))
      // Bounded: if the second request ran (and so waited for the store too), fail fast and free the store.
      const second = await Promise.race([
        start(key, k, { to }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("the second request waited: it ran instead of answering 409")), 5_000)
        ),
      ])
      expect(second.status).toBe(409)
      expect(second.body).toEqual({ error: "idempotency_in_progress" })
      await runtime.runPromise(Deferred.succeed(gate, undefined))
      const original = await first
      expect(original.status).toBe(200)
      const replay = await start(key, k, { to })
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(replay.body).toEqual(original.body)
      expect(await smsCount(to)).toBe(1)
    } finally {
      await runtime.runPromise(Deferred.succeed(gate, undefined))
      await runtime.runPromise(Fiber.join(holder))
    }
  })

  it("20 concurrent requests with one Idempotency-Key: exactly one SMS and one charge; every answer is the 200 (identical body) or 409 idempotency_in_progress", async () => {
    const { account, key } = await setupApplication(s, { balance: 900 })
    const to = phone()
    const k = idemKey()
    const answers = await Promise.all(Array.from({ length: 20 }, () => start(key, k, { to })))
    const ok = answers.filter((a) => a.status === 200)
    const busy = answers.filter((a) => a.status === 409)
    expect(ok.length + busy.length).toBe(20)
    expect(ok.length).toBeGreaterThanOrEqual(1)
    for (const a of ok) expect(a.body).toEqual(ok[0].body)
    expect(ok.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1)
    for (const a of busy) expect(a.body).toEqual({ error: "idempotency_in_progress" })
    expect(await smsCount(to)).toBe(1)
    const { summary, balance } = await ledger(account.id)
    expect(summary.charges).toBe(9)
    expect(balance).toBe(891)
  })
})

describe('"Only 2xx answers are stored; any other answer frees the key, so a retry after `502 send_failed` or `402 insufficient_credits` runs again"', () => {
  it("402 insufficient_credits frees the key: after a top-up the same request runs and sends", async () => {
    const { account, key } = await setupApplication(s, { balance: 0 })
    const to = phone()
    const k = idemKey()
    const broke = await start(key, k, { to })
    expect(broke.status).toBe(402)
    expect(broke.body).toMatchObject({ error: "insufficient_credits", balance_halalas: 0, price_halalas: 9 })
    const again = await start(key, k, { to })
    expect(again.status).toBe(402)
    expect(again.headers.get("idempotent-replayed")).toBeNull()

    await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: 9 })
    const paid = await start(key, k, { to })
    expect(paid.status).toBe(200)
    expect(paid.headers.get("idempotent-replayed")).toBeNull()
    expect(await smsCount(to)).toBe(1)
    expect((await ledger(account.id)).balance).toBe(0)
    expect((await start(key, k, { to })).headers.get("idempotent-replayed")).toBe("true")
  })

  it("502 send_failed frees the key: the retry runs again (and is refunded again), and the key may then carry another request", async () => {
    const { account, key } = await setupApplication(s, { balance: 100 })
    const k = idemKey()
    const refused = await start(key, k, { to: "+966500000001" })
    expect(refused.status).toBe(502)
    expect(refused.body).toMatchObject({ error: "send_failed", provider_code: "simulated_refusal" })
    const retried = await start(key, k, { to: "+966500000001" })
    expect(retried.status).toBe(502)
    expect(retried.headers.get("idempotent-replayed")).toBeNull()
    const before = await ledger(account.id)
    expect(before.summary.charges).toBe(18) // it ran twice
    expect(before.summary.refunds).toBe(18)
    expect(before.balance).toBe(100)

    const to = phone()
    const sent = await start(key, k, { to })
    expect(sent.status).toBe(200)
    expect(await smsCount(to)).toBe(1)
  })

  it("a 4xx (422 invalid_destination, 400 invalid_json) frees the key too", async () => {
    const { key } = await setupApplication(s)
    const k = idemKey()
    expect((await start(key, k, { to: "123" })).status).toBe(422)
    expect((await s.call("POST", "/v1/verify/start", { key, rawBody: "{", headers: { "idempotency-key": k } })).status)
      .toBe(400)
    const to = phone()
    expect((await start(key, k, { to })).status).toBe(200)
    expect(await smsCount(to)).toBe(1)
  })
})

describe('"A key that is empty, longer than 128 characters or holds a character outside printable ASCII: `400 invalid_request`"', () => {
  // (A DEL or other control byte never reaches the platform: node:http's parser refuses the request itself.)
  it("empty, 129 characters, non-ASCII (Latin-1 or raw UTF-8 bytes), a tab inside: 400 invalid_request naming Idempotency-Key, and nothing runs", async () => {
    const { key } = await setupApplication(s)
    const to = phone()
    for (const bad of ["", "x".repeat(129), "clé-1", "a\tb", Buffer.from("ключ", "utf8").toString("latin1")]) {
      const res = await rawStart(key, bad, JSON.stringify({ to }))
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.error).toBe("invalid_request")
      expect(Object.keys(res.body.fields)).toEqual(["Idempotency-Key"])
    }
    expect(await smsCount(to)).toBe(0)
  })

  it("1 and 128 printable ASCII characters (inner spaces and symbols included) are accepted", async () => {
    const { key } = await setupApplication(s)
    for (const good of ["a", "y".repeat(128), "order 42 / ~!@#$%^&*()_+{}|:<>?"]) {
      const to = phone()
      const res = await start(key, good, { to })
      expect(res.status, good).toBe(200)
      expect((await start(key, good, { to })).headers.get("idempotent-replayed")).toBe("true")
    }
  })

  it("reads (GET) ignore Idempotency-Key", async () => {
    const { key } = await setupApplication(s)
    const started = await start(key, undefined, { to: phone() })
    const read = await s.call("GET", `/v1/verify/${started.body.id}`, { key, headers: { "idempotency-key": "" } })
    expect(read.status).toBe(200)
  })
})

describe('"scoped to the presented credential"', () => {
  it("the same Idempotency-Key and body under another API key of the same application runs again", async () => {
    const { account, app, key } = await setupApplication(s, { balance: 1_000 })
    const other = await s.console("POST", `/applications/${app.id}/keys`, { mode: "live" })
    const to = phone()
    const k = idemKey()
    const a = await start(key, k, { to })
    const b = await start(other.key, k, { to })
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(b.headers.get("idempotent-replayed")).toBeNull()
    expect(b.body.id).not.toBe(a.body.id)
    expect(await smsCount(to)).toBe(2)
    expect((await ledger(account.id)).summary.charges).toBe(18)
    // ...and each key replays its own answer.
    expect((await start(other.key, k, { to })).body.id).toBe(b.body.id)
    expect((await start(key, k, { to })).body.id).toBe(a.body.id)
  })
})

describe('"kept 24 hours"', () => {
  it("just before 24 hours the key still replays; once the simulated clock passes 24 hours the key is free and the request runs again", async () => {
    const { key } = await setupApplication(s)
    const to = phone()
    const k = idemKey()
    const first = await start(key, k, { to })
    expect(first.status).toBe(200)
    const code = await latestCode(s, to)
    expect(code).toMatch(/^\d{6}$/)

    await s.console("POST", "/simulator/clock", { advance_ms: 24 * 3_600_000 - 1_000 })
    const kept = await start(key, k, { to })
    expect(kept.headers.get("idempotent-replayed")).toBe("true")
    expect(kept.body).toEqual(first.body)

    await s.console("POST", "/simulator/clock", { advance_ms: 2_000 })
    const fresh = await start(key, k, { to })
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get("idempotent-replayed")).toBeNull()
    expect(fresh.body.id).not.toBe(first.body.id)
    expect(await smsCount(to)).toBe(2)
  })
})
