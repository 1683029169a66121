/** The platform product's store contract: rate windows and idempotency, transactions, the outbox and job leases. */
import type { It } from "../fixtures.ts"
import { httpContract } from "./platform/http.ts"
import { outboxAndJobsContract } from "./platform/outbox-jobs.ts"
import { transactionsContract } from "./platform/transactions.ts"

export const contract = (it: It) => {
  httpContract(it)
  transactionsContract(it)
  outboxAndJobsContract(it)
}
