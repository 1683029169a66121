/**
 * A bounded map in two generations of at most `capacity` entries each: a hit in the older generation moves
 * the entry to the newer one; when the newer is full it becomes the older, and the older is forgotten. It
 * never holds more than 2 × `capacity` entries, and a working set somewhat larger than `capacity` still
 * mostly hits, where one map cleared when full misses on every call once the working set outgrows it
 * (measured with `npm run bench -- http` and 12,000 keys in rotation over a memo of 10,000: every request
 * paid the credential's HMAC again).
 */
export interface Generations<V> {
  readonly get: (key: string) => V | undefined
  readonly set: (key: string, value: V) => void
  /** Entries held, both generations (for tests). */
  readonly size: () => number
}

export const twoGenerations = <V>(capacity: number): Generations<V> => {
  let newer = new Map<string, V>()
  let older = new Map<string, V>()
  const set = (key: string, value: V) => {
    if (newer.size >= capacity && !newer.has(key)) {
      older = newer
      newer = new Map()
    }
    newer.set(key, value)
  }
  return {
    get: (key) => {
      const value = newer.get(key)
      if (value !== undefined) return value
      const old = older.get(key)
      if (old === undefined) return undefined
      older.delete(key)
      set(key, old)
      return old
    },
    set,
    size: () => newer.size + older.size,
  }
}

/** A bounded memo of a pure function of strings, over `twoGenerations`. */
export interface Memo {
  readonly get: (key: string) => string
  /** Entries held, both generations (for tests). */
  readonly size: () => number
}

export const twoGenerationMemo = (capacity: number, compute: (key: string) => string): Memo => {
  const held = twoGenerations<string>(capacity)
  return {
    get: (key) => {
      let value = held.get(key)
      if (value === undefined) held.set(key, value = compute(key))
      return value
    },
    size: held.size,
  }
}
