/** The in-process store: the same semantics as the SQL store, for core tests and the HTTP benchmark. */
import type { Layer } from "effect"
import { memoryStoreOf, type Store } from "../products.ts"

/** Every product's repositories over empty tables, each time the layer is built. */
export const MemoryStore: Layer.Layer<Store> = memoryStoreOf()
