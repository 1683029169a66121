/**
 * A product, as the platform folds it: one value per product (adapters/modules/<product>.ts) holding
 * everything the platform, the two stores, the migrator, the jobs loop, the error catalogue, the scope table,
 * the SMS provider switch, the OpenAPI document and the tests take from it. The list of products
 * (adapters/products.ts) is the one place a new product is added.
 */
import type { Effect, Layer } from "effect"
import type { AnyOperation } from "../core/pipeline/operation.ts"
import type { AnyErrorClass } from "../core/shared/api-error.ts"
import type { Job } from "../core/shared/job.ts"
import type { EventDeclaration } from "../core/shared/event.ts"
import type { ScopeDeclaration } from "../core/shared/scope.ts"
import type { SmsGateway } from "../ports/sms.ts"
import type { Settings } from "./config.ts"
import type { ConsolePage } from "./console/page.ts"
import type { MemoryDb } from "./memory/db.ts"
import type { Migration } from "./sql/migrate.ts"

/** An OpenAPI tag: the document groups a product's operations under it. */
export interface Tag {
  readonly name: string
  readonly description: string
}

export interface Product<Repositories = never, Services = never, Needs = never> {
  /** Names the product's migrations (`schema_migrations.product`), its memory tables and its store contract. */
  readonly name: string
  /** Whether the product is wired with these settings (a simulator only while it is selected). Default: always. */
  readonly selected?: (settings: Settings) => boolean
  /** Its repositories over the memory store's tables (empty each time the layer is built). */
  readonly memory?: Layer.Layer<Repositories, never, MemoryDb>
  /**
   * Its repositories over SQL (the layer gets the `SqlClient`, the executor of adapters/sql and the SQL
   * repositories of the products before it in the list).
   */
  readonly sql?: Layer.Layer<Repositories, never, any>
  /** Its migrations, numbered within the product. */
  readonly migrations?: ReadonlyArray<Migration>
  /**
   * Its services, given the store, the platform's ports (secrets, SMS, clock, config, scopes) and the services
   * of the products before it in the list (`Needs`: the list's order is checked against it by `productList`).
   */
  readonly services?: (settings: Settings) => Layer.Layer<Services, never, Needs>
  /**
   * Its console pages (adapters/console/page.ts), served under `/console/` with the frame's session, CSRF and
   * language steps; each page calls the product's services, as its console operations do.
   */
  readonly pages?: ReadonlyArray<ConsolePage>
  /** Its declared operations (public and console): routes, decoding, OpenAPI and the client come from them. */
  readonly operations?: ReadonlyArray<AnyOperation>
  /** Its background jobs, each declaring when it next falls due. */
  readonly jobs?: Effect.Effect<ReadonlyArray<Job>, never, any>
  /** Its error codes (`core/<product>/errors.ts`): the catalogue is the fold of these. */
  readonly errors?: ReadonlyArray<AnyErrorClass>
  /** The key scopes it adds, with their inclusions (`core/<product>/scopes.ts`). */
  readonly scopes?: ReadonlyArray<ScopeDeclaration>
  /** The events it fires, with their `data` (the document's `webhooks`). */
  readonly events?: ReadonlyArray<EventDeclaration>
  /** The document's tags for its operations (the first is every operation's; default: the product's name). */
  readonly tags?: ReadonlyArray<Tag>
  /** SMS gateways it provides, by the `SMS_PROVIDER` value that selects each. */
  readonly smsGateways?: Readonly<Record<string, Layer.Layer<SmsGateway, unknown, any>>>
}

/** Any product (a layer's outputs are contravariant, so `never` is the type every product is assignable to). */
export type AnyProduct = Product<never, never, any>

type RepositoriesOfOne<P> = P extends Product<infer R, infer _S, infer _N> ? R : never
type ServicesOfOne<P> = P extends Product<infer _R, infer S, infer _N> ? S : never
type NeedsOfOne<P> = P extends Product<infer _R, infer _S, infer N> ? N : never
/** The repositories a list of products provides. */
export type RepositoriesOf<P extends ReadonlyArray<AnyProduct>> = RepositoriesOfOne<P[number]>
/** The services a list of products provides. */
export type ServicesOf<P extends ReadonlyArray<AnyProduct>> = ServicesOfOne<P[number]>

/**
 * The first product of `L` whose services need something that neither `Below` (the store, the platform's ports)
 * nor the products before it provide, as a message tsc prints; `L` itself when the order holds.
 */
export type OrderChecked<L extends ReadonlyArray<AnyProduct>, Below, Before = never> = L extends
  readonly [infer P extends AnyProduct, ...infer Rest extends ReadonlyArray<AnyProduct>]
  ? [Exclude<NeedsOfOne<P>, Below | Before | ServicesOfOne<P>>] extends [never]
    ? OrderChecked<Rest, Below, Before | ServicesOfOne<P>> extends infer Checked
      ? Checked extends ReadonlyArray<AnyProduct> ? L : Checked
    : never
  : `The product "${P[
    "name"
  ]}" needs a service that no product before it in the list provides: move it after the product that provides it.`
  : L

/** Declares a product (checks its shape, keeps its types and its name's literal for `OrderChecked`'s message). */
export const product = <R = never, S = never, N = never, const Name extends string = string>(
  p: Product<R, S, N> & { readonly name: Name },
): Product<R, S, N> & { readonly name: Name } => p
