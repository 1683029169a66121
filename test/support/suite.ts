/**
 * A resource for the enclosing suite (a file, or the `describe` it is called in): opened before the suite's
 * first test, closed after its last.
 */
import { afterAll, beforeAll } from "vitest"

/**
 * Opens `open()` in `beforeAll` and closes it in `afterAll`; answers a stand-in that forwards every property
 * read and write to the resource, so tests use it as they would the resource itself.
 */
export const forSuite = <T extends { readonly close: () => Promise<void> }>(open: () => Promise<T>): T => {
  let current: T | undefined
  beforeAll(async () => {
    current = await open()
  })
  afterAll(async () => {
    await current?.close()
  })
  const resource = (): T => {
    if (current === undefined) throw new Error("a suite resource used outside its suite's tests")
    return current
  }
  return new Proxy({} as T, {
    get: (_, name) => Reflect.get(resource(), name),
    set: (_, name, value) => Reflect.set(resource(), name, value),
  })
}
