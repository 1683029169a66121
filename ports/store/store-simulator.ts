/**
 * The store-platform simulator's state (DECISIONS 9.5): each simulated store, by platform and reference, as the
 * console put it; in the store so every process sees the same platform.
 */
import { Context, type Effect, type Option } from "effect"
import type { PlatformStore, StorePlatformCode } from "../store-platforms.ts"

export interface SimulatedStore extends PlatformStore {
  readonly platform: StorePlatformCode
  readonly ref: string
  /** False: every read of it fails as unreachable. */
  readonly reachable: boolean
}

export class SimulatedStoresRepo extends Context.Tag("ports/SimulatedStoresRepo")<SimulatedStoresRepo, {
  readonly get: (platform: StorePlatformCode, ref: string) => Effect.Effect<Option.Option<SimulatedStore>>
  /** Makes or replaces the simulated store. */
  readonly put: (store: SimulatedStore) => Effect.Effect<void>
}>() {}
