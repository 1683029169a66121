/** Helpers for Notifications over HTTP on the in-process test server (simulated chat network and clock). */
import { Effect } from "effect"
import type { AccountId } from "../../core/shared/brands.ts"
import { type OutboxEvent, OutboxRepo } from "../../ports/store/outbox.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { setupApplication, type TestServer } from "../support/server.ts"

export const customer = "+966512345678"

/** A simulated template copy (DECISIONS 7.4) as the console writes it. */
export interface Copy {
  readonly category: "utility" | "marketing" | "authentication"
  readonly status?: string
  readonly body: string
  readonly header?: unknown
  readonly buttons?: ReadonlyArray<unknown>
  readonly reason?: string
}

/** An approved application with a funded wallet, a live key and a connected number on the simulated network. */
export const setupChat = async (
  s: TestServer,
  opts: { balance?: number; number?: boolean; connected?: boolean; approved?: boolean; mode?: "live" | "test" } = {},
) => {
  const made = await setupApplication(s, { balance: opts.balance, approved: opts.approved, mode: opts.mode })
  if (opts.number ?? true) {
    await s.console("PUT", `/simulator/chatmsg/applications/${made.app.id}/number`, {
      number: "0555000111",
      connected: opts.connected ?? true,
    })
  }
  return made
}

export const putCopy = (s: TestServer, applicationId: string, name: string, lang: string, copy: Copy) =>
  s.console("PUT", `/simulator/chatmsg/applications/${applicationId}/templates/${name}/${lang}`, {
    status: "approved",
    ...copy,
  })

export const send = (
  s: TestServer,
  key: string,
  body: unknown,
  route: "messages" | "codes" = "messages",
  headers?: Record<string, string>,
) => s.call("POST", `/v1/chatmsg/${route}`, { key, body, headers })

export const sendRaw = (s: TestServer, key: string, rawBody: string) =>
  s.call("POST", "/v1/chatmsg/messages", { key, rawBody })

export const report = (s: TestServer, id: string, status: string, error?: unknown) =>
  s.call("POST", `/console/v1/simulator/chatmsg/messages/${id}/report`, {
    key: s.consoleToken,
    body: error === undefined ? { status } : { status, error },
  })

export const inbound = (s: TestServer, application: string, from: string, text: string) =>
  s.console("POST", "/simulator/chatmsg/inbound", { application, from, text })

/** The message events of one message, oldest first. */
export const messageEvents = async (s: TestServer, id: string): Promise<ReadonlyArray<OutboxEvent>> =>
  (await s.platform.runtime.runPromise(
    Effect.map(Effect.flatMap(OutboxRepo, (o) => o.listRecent(100_000)), (es) => es.slice().reverse()),
  )).filter((e) => e.event.startsWith("message.") && e.data.id === id)

export const balance = (s: TestServer, accountId: string): Promise<number> =>
  s.platform.runtime.runPromise(Effect.flatMap(WalletRepo, (w) => w.balance(accountId as AccountId)))

/** What the simulated network took, newest first. */
export const networkLog = async (s: TestServer, to?: string): Promise<ReadonlyArray<any>> => {
  const query = to === undefined ? "" : `?to=${encodeURIComponent(to)}`
  const res = await s.call("GET", `/console/v1/simulator/chatmsg/messages${query}`, { key: s.consoleToken })
  if (res.status !== 200) throw new Error(`network log: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}
