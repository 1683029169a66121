/** The wallet's event (DECISIONS 12): `balance.low`, to the account's webhook and feed. */
import { Schema } from "effect"
import { events } from "../shared/event.ts"

const BalanceLowData = Schema.Struct({
  id: Schema.String.annotations({ description: "The `webhook-id` of the delivery to the account" }),
  account_id: Schema.UUID,
  balance_halalas: Schema.Int,
  low_balance_alert_halalas: Schema.Int,
  state: Schema.Literal("ok", "low", "out"),
  codes_left: Schema.Int,
  occurred_at: Schema.String,
}).annotations({ identifier: "BalanceLow" })

export const walletEvents = events([
  {
    name: "balance.low",
    summary: "A charge took the balance from at least the alert to below it (once; a credit back re-arms it).",
    data: BalanceLowData,
  },
])
