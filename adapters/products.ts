/**
 * The products of the platform, in the order they are folded: each one's migrations run in this order, and
 * each one's services are built with the services of those before it. Adding a product is adding its module
 * (adapters/modules/<product>.ts) here: the stores, the migrator, the platform's layers, its routes and
 * OpenAPI document, the jobs loop and the test layers all fold over this list.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import { Layer } from "effect"
import type { AnyOperation } from "../core/pipeline/operation.ts"
import { AccountCatalogue, isAccountOperation } from "../core/pipeline/catalogue.ts"
import type { Settings } from "./config.ts"
import { jobsOf } from "./jobs.ts"
import { MemoryDb } from "./memory/db.ts"
import { accountsProduct } from "./modules/accounts.ts"
import { approvalsProduct } from "./modules/approvals.ts"
import { clockSimulatorProduct } from "./modules/clock-simulator.ts"
import { partnerFeedProduct } from "./modules/partner-feed.ts"
import { partnerProduct } from "./modules/partner.ts"
import { paymentsSimulatorProduct } from "./modules/payments-simulator.ts"
import { platformProduct } from "./modules/platform.ts"
import { smsSimulatorProduct } from "./modules/sms-simulator.ts"
import { usageProduct } from "./modules/usage.ts"
import { verifyProduct } from "./modules/verify.ts"
import { walletProduct } from "./modules/wallet.ts"
import { webhooksProduct } from "./modules/webhooks.ts"
import type { AnyProduct, RepositoriesOf, ServicesOf } from "./product.ts"
import { SqlExecutorLive } from "./sql/executor.ts"
import { migrate } from "./sql/migrate.ts"

export const products = [
  platformProduct,
  accountsProduct,
  approvalsProduct,
  walletProduct,
  paymentsSimulatorProduct,
  verifyProduct,
  usageProduct,
  partnerProduct,
  partnerFeedProduct,
  webhooksProduct,
  smsSimulatorProduct,
  clockSimulatorProduct,
] as const

/** Everything a store provides: every product's repositories. */
export type Store = RepositoriesOf<typeof products>
/** Every product's services. */
export type ProductServices = ServicesOf<typeof products>

/** The products wired with these settings (a simulator only while it is selected). */
export const selectedProducts = (
  settings: Settings,
  list: ReadonlyArray<AnyProduct> = products,
): ReadonlyArray<AnyProduct> => list.filter((p: AnyProduct) => p.selected?.(settings) ?? true)

const merged = <A>(layers: ReadonlyArray<Layer.Layer<A, never, any>>): Layer.Layer<A, never, any> =>
  layers.length === 0 ? (Layer.empty as any) : Layer.mergeAll(layers[0], ...layers.slice(1))

/** The memory store of `list` (every product by default): fresh, empty tables each time it is built. */
export const memoryStoreOf = (list: ReadonlyArray<AnyProduct> = products): Layer.Layer<Store> =>
  Layer.provide(merged(list.map((p) => p.memory)), MemoryDb.layer) as Layer.Layer<Store>

/**
 * The SQL repositories of `list` over one `SqlClient` (and this project's executor for it:
 * adapters/sql/executor.ts), each product's given those of the products before it (Verify's send takes the
 * wallet's charge: `WalletChargeSql`). Each layer is built once.
 */
export const sqlRepositoriesOf = (
  list: ReadonlyArray<AnyProduct> = products,
): Layer.Layer<Store, never, SqlClient.SqlClient> =>
  Layer.provide(
    list.reduce<Layer.Layer<any, never, any>>((built, p) => Layer.provideMerge(p.sql, built), Layer.empty as any),
    SqlExecutorLive,
  ) as Layer.Layer<Store, never, SqlClient.SqlClient>

/** The store of `list` over a client, once the products' migrations have run on it. Connection failures are defects. */
export const sqlStoreOf = <E>(
  clientLayer: Layer.Layer<SqlClient.SqlClient, E>,
  list: ReadonlyArray<AnyProduct> = products,
): Layer.Layer<Store | SqlClient.SqlClient> => {
  const migrated = Layer.effectDiscard(migrate(list)).pipe(Layer.provideMerge(clientLayer))
  return sqlRepositoriesOf(list).pipe(Layer.provideMerge(migrated), Layer.orDie)
}

/**
 * The products' services over `below` (the store and the platform's ports), each given those before it, and
 * the account API's catalogue of the list's account operations.
 */
export const servicesOf = <A>(
  list: ReadonlyArray<AnyProduct>,
  settings: Settings,
  below: Layer.Layer<A>,
): Layer.Layer<A | ProductServices | AccountCatalogue> =>
  list.reduce<Layer.Layer<any>>(
    (built, p) => (p.services === undefined ? built : Layer.provideMerge(p.services(settings), built)),
    Layer.merge(
      below,
      Layer.succeed(AccountCatalogue, { operations: operationsOf(list).filter(isAccountOperation) }),
    ),
  )

/** The jobs of `list`, as the `Jobs` list the loop and the simulated clock run. */
export const jobsLayerOf = (list: ReadonlyArray<AnyProduct>) => jobsOf(list.flatMap((p) => (p.jobs ? [p.jobs] : [])))

/** Every declared operation of `list`. */
export const operationsOf = (list: ReadonlyArray<AnyProduct> = products): ReadonlyArray<AnyOperation> =>
  list.flatMap((p) => p.operations ?? [])
