/**
 * A product, as the platform folds it: one value per product (adapters/modules/<product>.ts) holding
 * everything the platform, the two stores, the migrator, the jobs loop and the tests take from it. The list
 * of products (adapters/products.ts) is the one place a new product is added.
 */
import type { Effect, Layer } from "effect"
import type { AnyOperation } from "../core/pipeline/operation.ts"
import type { Job } from "../core/shared/job.ts"
import type { Settings } from "./config.ts"
import type { MemoryDb } from "./memory/db.ts"
import type { Migration } from "./sql/migrate.ts"

export interface Product<Repositories = never, Services = never> {
  /** Names the product's migrations (`schema_migrations.product`) and its memory tables. */
  readonly name: string
  /** Whether the product is wired with these settings (a simulator only while it is selected). Default: always. */
  readonly selected?: (settings: Settings) => boolean
  /** Its repositories over the memory store's tables (empty each time the layer is built). */
  readonly memory: Layer.Layer<Repositories, never, MemoryDb>
  /**
   * Its repositories over SQL (the layer gets the `SqlClient`, the executor of adapters/sql and the SQL
   * repositories of the products before it in the list).
   */
  readonly sql: Layer.Layer<Repositories, never, any>
  /** Its migrations, numbered within the product. */
  readonly migrations: ReadonlyArray<Migration>
  /**
   * Its services, given the store, the platform's ports (secrets, SMS, clock, config) and the services of
   * the products before it in the list.
   */
  readonly services?: (settings: Settings) => Layer.Layer<Services, never, any>
  /** Its declared operations (public and console): routes, decoding, OpenAPI and the client come from them. */
  readonly operations?: ReadonlyArray<AnyOperation>
  /** Its background jobs, each declaring when it next falls due. */
  readonly jobs?: Effect.Effect<ReadonlyArray<Job>, never, any>
}

/** Any product (a layer's outputs are contravariant, so `never` is the type every product is assignable to). */
export type AnyProduct = Product<never, never>

type RepositoriesOfOne<P> = P extends Product<infer R, infer _S> ? R : never
type ServicesOfOne<P> = P extends Product<infer _R, infer S> ? S : never
/** The repositories a list of products provides. */
export type RepositoriesOf<P extends ReadonlyArray<AnyProduct>> = RepositoriesOfOne<P[number]>
/** The services a list of products provides. */
export type ServicesOf<P extends ReadonlyArray<AnyProduct>> = ServicesOfOne<P[number]>

/** Declares a product (checks its shape, keeps its types). */
export const product = <R, S = never>(p: Product<R, S>): Product<R, S> => p
