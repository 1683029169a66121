/** The in-process store: the same semantics as the SQL store, for core tests and the HTTP benchmark. */
import { Layer } from "effect"
import type { Store } from "../../ports/store/mod.ts"
import { AccountsRepoMemory, ApplicationsRepoMemory } from "./accounts.ts"
import { CredentialsRepoMemory } from "./credentials.ts"
import { MemoryDb } from "./db.ts"
import { IdempotencyRepoMemory } from "./idempotency.ts"
import { RateLimitRepoMemory } from "./rate-limit.ts"
import { JobsRepoMemory } from "./jobs.ts"
import { OutboxRepoMemory } from "./outbox.ts"
import { SimulatedSmsRepoMemory } from "./simulator.ts"
import { TransactorMemory } from "./transactor.ts"
import {
  SandboxDestinationsRepoMemory,
  VerificationsRepoMemory,
  VerifySendsRepoMemory,
  VerifySettingsRepoMemory,
} from "./verify.ts"
import { WalletRepoMemory } from "./wallet.ts"
import { WebhookEndpointsRepoMemory } from "./webhook-endpoints.ts"
import { WebhookDeliveriesRepoMemory } from "./webhook-deliveries.ts"

/** Empty tables each time the layer is built. */
export const MemoryStore: Layer.Layer<Store> = Layer.mergeAll(
  TransactorMemory,
  AccountsRepoMemory,
  ApplicationsRepoMemory,
  CredentialsRepoMemory,
  RateLimitRepoMemory,
  IdempotencyRepoMemory,
  WalletRepoMemory,
  VerificationsRepoMemory,
  VerifySendsRepoMemory,
  VerifySettingsRepoMemory,
  SandboxDestinationsRepoMemory,
  OutboxRepoMemory,
  WebhookEndpointsRepoMemory,
  WebhookDeliveriesRepoMemory,
  JobsRepoMemory,
  SimulatedSmsRepoMemory,
).pipe(Layer.provide(MemoryDb.layer))
