/** The SQL store: every repository over one `SqlClient`, on PostgreSQL (`@effect/sql-pg`) or PGlite. */
import type * as SqlClient from "@effect/sql/SqlClient"
import { Layer } from "effect"
import type { Store } from "../../ports/store/mod.ts"
import { AccountsRepoSql, ApplicationsRepoSql } from "./accounts.ts"
import { CredentialsRepoSql } from "./credentials.ts"
import { IdempotencyRepoSql } from "./idempotency.ts"
import { RateLimitRepoSql } from "./rate-limit.ts"
import { JobsRepoSql } from "./jobs.ts"
import { migrate } from "./migrate.ts"
import { OutboxRepoSql } from "./outbox.ts"
import * as PgNamedClient from "./pg-client.ts"
import * as PgliteClient from "./pglite-client.ts"
import { SimulatedSmsRepoSql } from "./simulator.ts"
import { SqlExecutorLive } from "./executor.ts"
import { TransactorSql } from "./transactor.ts"
import {
  SandboxDestinationsRepoSql,
  VerificationsRepoSql,
  VerifySendsRepoSql,
  VerifySettingsRepoSql,
} from "./verify.ts"
import { WalletRepoSql } from "./wallet.ts"
import { WebhookEndpointsRepoSql } from "./webhook-endpoints.ts"
import { WebhookDeliveriesRepoSql } from "./webhook-deliveries.ts"

export { migrate }

const repositories = Layer.mergeAll(
  TransactorSql,
  AccountsRepoSql,
  ApplicationsRepoSql,
  CredentialsRepoSql,
  RateLimitRepoSql,
  IdempotencyRepoSql,
  WalletRepoSql,
  VerificationsRepoSql,
  VerifySendsRepoSql,
  VerifySettingsRepoSql,
  SandboxDestinationsRepoSql,
  OutboxRepoSql,
  WebhookEndpointsRepoSql,
  WebhookDeliveriesRepoSql,
  JobsRepoSql,
  SimulatedSmsRepoSql,
)

/** Every repository over one `SqlClient` (and this project's driver for it, when there is one: executor.ts). */
export const SqlStore: Layer.Layer<Store, never, SqlClient.SqlClient> = Layer.provide(repositories, SqlExecutorLive)

/** The store over a client, once the migrations have run on it. Connection failures are defects. */
export const storeOver = <E>(
  clientLayer: Layer.Layer<SqlClient.SqlClient, E>,
): Layer.Layer<Store | SqlClient.SqlClient> => {
  const migrated = Layer.effectDiscard(migrate).pipe(Layer.provideMerge(clientLayer))
  return SqlStore.pipe(Layer.provideMerge(migrated), Layer.orDie)
}

/** PostgreSQL through `@effect/sql-pg`, each connection preparing the statements it runs (see pg-client.ts). */
export const PgStoreLive = (url: string): Layer.Layer<Store | SqlClient.SqlClient> =>
  storeOver(PgNamedClient.layer(url))

/** `dataDir`: `"memory://"` or a directory. */
export const PgliteStoreLive = (dataDir: string): Layer.Layer<Store | SqlClient.SqlClient> =>
  storeOver(PgliteClient.layer({ dataDir }))
