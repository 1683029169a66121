/**
 * The products of the platform, in the order they are folded: each one's migrations run in this order, and
 * each one's services are built with the services of those before it. Adding a product is adding its module
 * (adapters/modules/<product>.ts) here: the stores, the migrator, the platform's layers, its routes and
 * OpenAPI document, the jobs loop and the test layers all fold over this list.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import { Layer } from "effect"
import { type OpenApiDocument, openApiDocument } from "../core/pipeline/openapi.ts"
import type { AnyErrorClass } from "../core/shared/api-error.ts"
import type { EventDeclaration } from "../core/shared/event.ts"
import { Scopes, type ScopeTable, scopeTable } from "../core/shared/scope.ts"
import type { Secrets } from "../ports/secrets.ts"
import type { SmsGateway } from "../ports/sms.ts"
import type { PlatformConfig } from "./config.ts"
import type { AnyOperation } from "../core/pipeline/operation.ts"
import { AccountCatalogue, isAccountOperation } from "../core/pipeline/catalogue.ts"
import type { Settings } from "./config.ts"
import type { ConsolePage } from "./console/page.ts"
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
import type { AnyProduct, OrderChecked, RepositoriesOf, ServicesOf, Tag } from "./product.ts"
import { SqlExecutorLive } from "./sql/executor.ts"
import { migrate } from "./sql/migrate.ts"
import { notificationsProduct } from "./modules/notifications.ts"
import { emailProduct } from "./modules/email.ts"
import { emailDeliveryProduct } from "./modules/email-delivery.ts"
import { dnsSimulatorProduct, emailProviderSimulatorProduct, emailSimulatorProduct } from "./modules/email-simulator.ts"
import { chatProduct } from "./modules/chat.ts"
import { chatNetworkProduct } from "./modules/chat-network.ts"
import { chatmsgSimulatorProduct } from "./modules/chatmsg-simulator.ts"
import { storePlatformsProduct } from "./modules/store-platforms.ts"
import { storeSimulatorProduct } from "./modules/store-simulator.ts"

/** What every product's services are given besides the store and the services of the products before it. */
export type PlatformPorts = Secrets | SmsGateway | PlatformConfig | Scopes | AccountCatalogue

/**
 * A products list, its order checked by types: a product whose services need a service that only a later
 * product provides fails tsc, naming the product (`OrderChecked`).
 */
export const productList = <const L extends ReadonlyArray<AnyProduct>>(
  list: L & OrderChecked<L, RepositoriesOf<L> | PlatformPorts>,
): L => list

export const products = productList([
  platformProduct,
  accountsProduct,
  approvalsProduct,
  walletProduct,
  paymentsSimulatorProduct,
  verifyProduct,
  chatNetworkProduct,
  notificationsProduct,
  emailDeliveryProduct,
  emailProduct,
  storePlatformsProduct,
  chatProduct,
  usageProduct,
  partnerProduct,
  partnerFeedProduct,
  webhooksProduct,
  smsSimulatorProduct,
  chatmsgSimulatorProduct,
  emailSimulatorProduct,
  emailProviderSimulatorProduct,
  dnsSimulatorProduct,
  storeSimulatorProduct,
  clockSimulatorProduct,
])

/** Everything a store provides: every product's repositories. */
export type Store = RepositoriesOf<typeof products>
/** Every product's services. */
export type ProductServices = ServicesOf<typeof products>

/** The products wired with these settings (a simulator only while it is selected). */
export const selectedProducts = (
  settings: Settings,
  list: ReadonlyArray<AnyProduct> = products,
): ReadonlyArray<AnyProduct> => list.filter((p: AnyProduct) => p.selected?.(settings) ?? true)

const merged = <A>(layers: ReadonlyArray<Layer.Layer<A, never, any> | undefined>): Layer.Layer<A, never, any> => {
  const given = layers.filter((l) => l !== undefined)
  return given.length === 0 ? (Layer.empty as any) : Layer.mergeAll(given[0], ...given.slice(1))
}

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
    list.reduce<Layer.Layer<any, never, any>>(
      (built, p) => (p.sql === undefined ? built : Layer.provideMerge(p.sql, built)),
      Layer.empty as any,
    ),
    SqlExecutorLive,
  ) as Layer.Layer<Store, never, SqlClient.SqlClient>

/**
 * The error catalogue of `list`: every product's codes, each once. Throws, naming the code and the two
 * products, when two declare the same code (checked when the list is folded, and by the frame's tests).
 */
export const errorsOf = (list: ReadonlyArray<AnyProduct> = products): ReadonlyArray<AnyErrorClass> => {
  const owner = new Map<string, string>()
  const all: Array<AnyErrorClass> = []
  for (const p of list) {
    for (const c of p.errors ?? []) {
      const by = owner.get(c._tag)
      if (by === p.name) continue
      if (by !== undefined) throw new Error(`The error code ${c._tag} is declared by both ${by} and ${p.name}.`)
      owner.set(c._tag, p.name)
      all.push(c)
    }
  }
  return all
}

/** The HTTP status of every code of `list`'s catalogue. */
export const errorStatuses = (list: ReadonlyArray<AnyProduct> = products): Readonly<Record<string, number>> =>
  Object.fromEntries(errorsOf(list).map((c) => [c._tag, c.status]))

/** The scope table of `list` (core/shared/scope.ts), from every product's `scopes`. */
export const scopeTableOf = (list: ReadonlyArray<AnyProduct> = products): ScopeTable =>
  scopeTable(list.flatMap((p) => p.scopes ?? []))

/** The document's tags of `list`: each product's own, else one named after it. */
export const tagsOf = (list: ReadonlyArray<AnyProduct> = products): ReadonlyArray<Tag> =>
  list.flatMap((p) =>
    p.operations === undefined || p.operations.length === 0
      ? []
      : p.tags ?? [{ name: p.name, description: `The ${p.name} operations.` }]
  )

/** The SMS gateway `provider` names among the products of `list`; a clear failure when none does. */
export const smsGatewayOf = (
  list: ReadonlyArray<AnyProduct>,
  provider: string,
): Layer.Layer<SmsGateway, unknown, any> => {
  const offered = list.flatMap((p) => Object.entries(p.smsGateways ?? {}))
  const found = offered.find(([name]) => name === provider)
  if (found !== undefined) return found[1]
  return Layer.die(
    new Error(`unknown SMS_PROVIDER: ${provider} (the products offer ${offered.map(([n]) => n).join(", ") || "none"})`),
  )
}

/** The store of `list` over a client, once the products' migrations have run on it. Connection failures are defects. */
export const sqlStoreOf = <E>(
  clientLayer: Layer.Layer<SqlClient.SqlClient, E>,
  list: ReadonlyArray<AnyProduct> = products,
): Layer.Layer<Store | SqlClient.SqlClient> => {
  const migrated = Layer.effectDiscard(migrate(list)).pipe(Layer.provideMerge(clientLayer))
  return sqlRepositoriesOf(list).pipe(Layer.provideMerge(migrated), Layer.orDie)
}

/**
 * The products' services over `below` (the store and the platform's ports), each given those before it, with
 * the account API's catalogue of the list's account operations and the list's scope table.
 */
export const servicesOf = <A>(
  list: ReadonlyArray<AnyProduct>,
  settings: Settings,
  below: Layer.Layer<A>,
): Layer.Layer<A | ProductServices | AccountCatalogue | Scopes> =>
  list.reduce<Layer.Layer<any>>(
    (built, p) => (p.services === undefined ? built : Layer.provideMerge(p.services(settings), built)),
    Layer.mergeAll(
      below,
      Layer.succeed(AccountCatalogue, { operations: operationsOf(list).filter(isAccountOperation) }),
      Layer.succeed(Scopes, scopeTableOf(list)),
    ),
  )

/** The jobs of `list`, as the `Jobs` list the loop and the simulated clock run. */
export const jobsLayerOf = (list: ReadonlyArray<AnyProduct>) => jobsOf(list.flatMap((p) => (p.jobs ? [p.jobs] : [])))

/**
 * What the types cannot see in a products list, checked when it is folded (the platform's start, and the
 * frame's tests over the real list): the catalogue and the scope table fold (each code and scope once, every
 * inclusion declared), every operation's scope is a declared one, every code an operation declares is in some
 * product's `errors`, operation names and routes are unique, and so are event names. Throws one error naming every
 * problem.
 */
export const checkProducts = (list: ReadonlyArray<AnyProduct> = products): void => {
  const problems: Array<string> = []
  const attempt = <A>(f: () => A): A | undefined => {
    try {
      return f()
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e))
      return undefined
    }
  }
  const codes = new Set((attempt(() => errorsOf(list)) ?? []).map((c) => c._tag))
  const table = attempt(() => scopeTableOf(list))
  const names = new Set<string>()
  const routes = new Set<string>()
  for (const p of list) {
    for (const op of p.operations ?? []) {
      if (names.has(op.name)) problems.push(`Two operations are named ${op.name}.`)
      names.add(op.name)
      const route = `${op.method} ${op.path.replace(/\{\w+\}/g, "{}")}`
      if (routes.has(route)) problems.push(`Two operations answer ${op.method} ${op.path}.`)
      routes.add(route)
      const scope = op.caller._tag === "Key" ? op.caller.guard.scope : undefined
      if (scope !== undefined && table !== undefined && table.unknown([scope]).length > 0) {
        problems.push(`${op.name} (${p.name}) needs the scope ${scope}, which no product in the list declares.`)
      }
      for (const c of op.errors) {
        if (!codes.has(c._tag)) {
          problems.push(
            `${op.name} (${p.name}) answers ${c._tag}, which no product in the list declares in its errors.`,
          )
        }
      }
    }
  }
  const pages = new Set<string>()
  for (const p of list) {
    for (const page of p.pages ?? []) {
      const at = `${page.method} /console${page.path}`
      if (!page.path.startsWith("/") || /^\/(v1|assets|sign-in|sign-out|language)(\/|$)/.test(page.path)) {
        problems.push(`The console page ${at} (${p.name}) is under a path the console's frame or JSON API holds.`)
      }
      if (pages.has(at)) problems.push(`Two console pages answer ${at}.`)
      pages.add(at)
    }
  }
  const fired = new Set<string>()
  for (const e of eventsOf(list)) {
    if (fired.has(e.name)) problems.push(`Two products declare the event ${e.name}.`)
    fired.add(e.name)
  }
  if (problems.length > 0) throw new Error(`The products list cannot be served:\n- ${problems.join("\n- ")}`)
}

/** The OpenAPI document of `list`: its operations, each under its product's tag, and its scopes. */
export const openApiOf = (list: ReadonlyArray<AnyProduct> = products): OpenApiDocument => {
  const tagOf = new Map<AnyOperation, string>()
  for (const p of list) for (const op of p.operations ?? []) tagOf.set(op, p.tags?.[0]?.name ?? p.name)
  return openApiDocument(operationsOf(list), {
    tags: tagsOf(list),
    tagOf: (op) => tagOf.get(op),
    scopes: scopeTableOf(list).declarations,
    events: eventsOf(list),
  })
}

/** Every event the products of `list` declare, in the list's order. */
export const eventsOf = (list: ReadonlyArray<AnyProduct> = products): ReadonlyArray<EventDeclaration> =>
  list.flatMap((p) => p.events ?? [])

/** Every console page of `list` (their paths under `/console/`). */
export const pagesOf = (list: ReadonlyArray<AnyProduct> = products): ReadonlyArray<ConsolePage> =>
  list.flatMap((p) => p.pages ?? [])

/** Every declared operation of `list`. */
export const operationsOf = (list: ReadonlyArray<AnyProduct> = products): ReadonlyArray<AnyOperation> =>
  list.flatMap((p) => p.operations ?? [])
