/**
 * The store assistant's records (DECISIONS 9.5): an application's connected online store, with its products as
 * last read, and the assistant's store tools. Plain data shared by the core, the repositories and their adapters.
 */
import type { AccountId, ApplicationId, Millis } from "../shared/brands.ts"
import type { PlatformProduct, StorePlatformCode } from "../../ports/store-platforms.ts"

export interface ChatStore {
  readonly id: string
  readonly accountId: AccountId
  readonly applicationId: ApplicationId
  readonly platform: StorePlatformCode
  readonly ref: string
  readonly name: string
  readonly url: string | null
  /** The merchant's access token, sealed (ports/secrets.ts); none on the simulator. Never answered, never logged. */
  readonly tokenSealed: string | null
  /** As last read, in the platform's order. */
  readonly products: ReadonlyArray<PlatformProduct>
  /** When the products were last read (a failed read keeps them and this). */
  readonly productsReadAt: Millis
  /** When the read job next reads them. */
  readonly nextReadAt: Millis
  readonly connectedAt: Millis
}

export const toolNames = ["orders", "order_status", "products"] as const
export type AssistantTools = { readonly [K in typeof toolNames[number]]: boolean }
/** Tools start on. */
export const defaultTools: AssistantTools = { orders: true, order_status: true, products: true }
