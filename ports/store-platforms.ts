/**
 * Online-store platforms (DECISIONS 9.5): a store's name, address and products, read for the assistant. Adapters:
 * the simulator (adapters/stores/simulator.ts) and the Salla Admin API v2 and Zid Merchant API
 * (adapters/stores/salla.ts, zid.ts), selected by `STORE_PROVIDER`.
 */
import { Context, Data, type Effect, type Redacted } from "effect"
import type { Halalas } from "../core/shared/brands.ts"

export const storePlatformCodes = ["salla", "zid"] as const
export type StorePlatformCode = typeof storePlatformCodes[number]

/** A store on its platform: the platform's code, the merchant's store reference and, live, the merchant's token. */
export interface StoreAddress {
  readonly platform: StorePlatformCode
  readonly ref: string
  /** The merchant's access token (Salla's OAuth 2 bearer, Zid's `X-Manager-Token`); none on the simulator. */
  readonly token: Redacted.Redacted<string> | null
}

export interface PlatformProduct {
  readonly id: string
  readonly name: string
  readonly priceHalalas: Halalas
  readonly available: boolean
}

/** What the platform answers for a store, every product of it, in the platform's order. */
export interface PlatformStore {
  readonly name: string
  readonly url: string | null
  readonly products: ReadonlyArray<PlatformProduct>
}

/** The platform did not answer, refused the token (401) or answered what cannot be read: nothing was read. */
export class StoreUnreachable extends Data.TaggedError("StoreUnreachable")<{
  readonly platform: StorePlatformCode
  readonly ref: string
  readonly message: string
}> {}

/** The store an error names: its platform and reference, never its token. */
export const where = (store: StoreAddress) => ({ platform: store.platform, ref: store.ref })

export class StorePlatforms extends Context.Tag("ports/StorePlatforms")<StorePlatforms, {
  readonly read: (store: StoreAddress) => Effect.Effect<PlatformStore, StoreUnreachable>
}>() {}
