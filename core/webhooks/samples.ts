/** Sample `data` of each event, for console rehearsals: the real shapes, with made-up values. */
import { serviceEventData } from "../accounts/service-events.ts"
import type { Application } from "../accounts/model.ts"
import { type AccountId, type Millis, SaudiMobile } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { maskForEvents } from "../notifications/wire.ts"
import { Prices, Wallet } from "../limits.ts"

const SampleId = "00000000-0000-4000-8000-000000000000"

export interface SampleContext {
  readonly accountId: AccountId
  /** The application whose endpoint is rehearsed, or null for an account endpoint. */
  readonly application: Application | null
  readonly now: Millis
}

const verification = (status: string, c: SampleContext) => ({
  id: SampleId,
  status,
  application_id: c.application?.id ?? SampleId,
  reference: "sample",
  channel: "sms",
  to: "+966500000000",
  mode: "test",
  attempts: status === "failed" ? 3 : status === "expired" ? 0 : 1,
  expires_at: isoMillis(c.now + 10 * 60_000),
  verified_at: status === "verified" ? isoMillis(c.now) : null,
  created_at: isoMillis(c.now - 30_000),
})

const message = (status: string, c: SampleContext) => ({
  id: SampleId,
  status,
  application_id: c.application?.id ?? SampleId,
  to: maskForEvents(SaudiMobile("+966500000000")),
  template: "sample_template",
  lang: "ar",
  reference: "sample",
  price_halalas: 0,
  error: status === "failed" ? { code: "sample_failure", message: "A sample failure." } : null,
  occurred_at: isoMillis(c.now),
  created_at: isoMillis(c.now - 30_000),
})

const service = (event: string, c: SampleContext) => {
  const app: Application = c.application ?? {
    id: SampleId as Application["id"],
    accountId: c.accountId,
    name: "Sample",
    status: "active",
    externalId: "sample-external-id",
    paused: false,
    unpausedAt: null,
    approvedAt: null,
    createdAt: c.now,
  }
  const extra: Record<string, unknown> = event === "service.rejected"
    ? { reason_code: "brand_mismatch", appealable: true }
    : event === "service.review_requested"
    ? { changed: ["website"] }
    : event === "service.paused" || event === "service.unpaused"
    ? { paused: event === "service.paused" }
    : {}
  return serviceEventData("msg_sample", app, "pending", c.now, extra)
}

/** The sample `data` of `event` (a known event name). */
export const sampleData = (event: string, c: SampleContext): Record<string, unknown> => {
  const [kind, move] = event.split(".")
  switch (kind) {
    case "verification":
      return c.application === null
        ? { ...verification(move, c), external_id: "sample-external-id" }
        : verification(move, c)
    case "message":
      return message(move, c)
    case "service":
      return service(event, c)
    default:
      return {
        id: SampleId,
        account_id: c.accountId,
        balance_halalas: Wallet.lowBalanceAlertHalalas - 1,
        low_balance_alert_halalas: Wallet.lowBalanceAlertHalalas,
        state: "low",
        codes_left: Math.floor((Wallet.lowBalanceAlertHalalas - 1) / Prices.verifySmsHalalas),
        occurred_at: isoMillis(c.now),
      }
  }
}
