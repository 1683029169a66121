/** The storage ports: one tag per repository, plus the transactor that spans them. */
export * from "./accounts.ts"
export * from "./credentials.ts"
export * from "./idempotency.ts"
export * from "./rate-limit.ts"
export * from "./jobs.ts"
export * from "./outbox.ts"
export * from "./simulator.ts"
export * from "./transactor.ts"
export * from "./verify.ts"
export * from "./wallet.ts"
export * from "./webhook-endpoints.ts"
export * from "./webhook-deliveries.ts"

import type { AccountsRepo, ApplicationsRepo } from "./accounts.ts"
import type { CredentialsRepo } from "./credentials.ts"
import type { IdempotencyRepo } from "./idempotency.ts"
import type { RateLimitRepo } from "./rate-limit.ts"
import type { JobsRepo } from "./jobs.ts"
import type { OutboxRepo } from "./outbox.ts"
import type { SimulatedSmsRepo } from "./simulator.ts"
import type { Transactor } from "./transactor.ts"
import type { SandboxDestinationsRepo, VerificationsRepo, VerifySendsRepo, VerifySettingsRepo } from "./verify.ts"
import type { WalletRepo } from "./wallet.ts"
import type { WebhookEndpointsRepo } from "./webhook-endpoints.ts"
import type { WebhookDeliveriesRepo } from "./webhook-deliveries.ts"

/** Everything a store adapter provides. */
export type Store =
  | Transactor
  | AccountsRepo
  | ApplicationsRepo
  | CredentialsRepo
  | RateLimitRepo
  | IdempotencyRepo
  | WalletRepo
  | VerificationsRepo
  | VerifySendsRepo
  | VerifySettingsRepo
  | SandboxDestinationsRepo
  | OutboxRepo
  | WebhookEndpointsRepo
  | WebhookDeliveriesRepo
  | JobsRepo
  | SimulatedSmsRepo
