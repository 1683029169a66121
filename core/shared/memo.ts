/**
 * A bounded memo of a pure function of strings, in two generations of at most `capacity` entries each: a
 * hit in the older generation moves the entry to the newer one; when the newer is full it becomes the
 * older, and the older is forgotten. It never holds more than 2 × `capacity` entries, and a working set
 * somewhat larger than `capacity` still mostly hits, where one map cleared when full misses on every call
 * once the working set outgrows it (measured with `npm run bench -- http` and 12,000 keys in rotation over a
 * memo of 10,000: every request paid the credential's HMAC again).
 */
export interface Memo {
  readonly get: (key: string) => string
  /** Entries held, both generations (for tests). */
  readonly size: () => number
}

export const twoGenerationMemo = (capacity: number, compute: (key: string) => string): Memo => {
  let newer = new Map<string, string>()
  let older = new Map<string, string>()
  const remember = (key: string, value: string) => {
    if (newer.size >= capacity) {
      older = newer
      newer = new Map()
    }
    newer.set(key, value)
  }
  return {
    get: (key) => {
      let value = newer.get(key)
      if (value !== undefined) return value
      value = older.get(key)
      if (value === undefined) value = compute(key)
      else older.delete(key)
      remember(key, value)
      return value
    },
    size: () => newer.size + older.size,
  }
}
