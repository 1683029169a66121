/** Helpers for Verify over HTTP on the in-process test server (memory store, simulated clock). */
import { Effect } from "effect"
import type { AccountId } from "../../core/shared/brands.ts"
import { type OutboxEvent, OutboxRepo } from "../../ports/store/outbox.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import type { TestServer } from "../support/server.ts"

/** `POST /console/v1/simulator/clock {advance_ms}`: moves the platform clock, running every job that falls due. */
export const advance = async (s: TestServer, ms: number): Promise<number> => {
  const res = await s.call("POST", "/console/v1/simulator/clock", { key: s.consoleToken, body: { advance_ms: ms } })
  if (res.status !== 200) throw new Error(`clock: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data.now_ms as number
}

export const now = (s: TestServer) => advance(s, 0)

/** `PUT /console/v1/applications/{id}/verify-settings`, answered as is. */
export const putSettings = (s: TestServer, applicationId: string, body: unknown) =>
  s.call("PUT", `/console/v1/applications/${applicationId}/verify-settings`, { key: s.consoleToken, body })

/** Every outbox event, oldest first. */
export const outbox = (s: TestServer): Promise<ReadonlyArray<OutboxEvent>> =>
  s.platform.runtime.runPromise(
    Effect.map(Effect.flatMap(OutboxRepo, (o) => o.listRecent(100_000)), (es) => es.slice().reverse()),
  )

export const eventsOf = async (s: TestServer, verificationId: string) =>
  (await outbox(s)).filter((e) => e.data.id === verificationId)

export const balance = (s: TestServer, accountId: string): Promise<number> =>
  s.platform.runtime.runPromise(Effect.flatMap(WalletRepo, (w) => w.balance(accountId as AccountId)))

/** Texts the SMS simulator logged to `to`, newest first. */
export const texts = async (s: TestServer, to: string): Promise<ReadonlyArray<{ text: string }>> => {
  const res = await s.call("GET", `/console/v1/simulator/sms?to=${encodeURIComponent(to)}`, { key: s.consoleToken })
  return res.body.data
}
