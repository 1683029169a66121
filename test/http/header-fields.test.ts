/**
 * One count and one lookup of a request's header fields, whichever shape a server hands them in
 * (adapters/http/edge.ts): node:http's raw list, a Fetch `Headers`, and a record of fields as Bun's
 * `Headers.toJSON()` gives it. Property tests: every shape reaches the same verdict on the limit, the same
 * exact count above it, and the same value for a field as Fetch's `Headers.get`.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fieldListLookup, headerBytes, rawHeaderBytes, rawHeaderLookup } from "../../adapters/http/edge.ts"

type Field = readonly [string, string]

/** Names in mixed case, some repeated; values with the spaces and commas the count leaves out. */
const name = fc.constantFrom("Host", "authorization", "Authorization", "X-Fill", "x-fill", "Accept", "Set-Cookie")
const value = fc.stringMatching(/^[a-z0-9]([a-z0-9 ,]{0,40}[a-z0-9])?$/)
const fields = fc.array(fc.tuple(name, value), { maxLength: 8 })

const flat = (fs: ReadonlyArray<Field>) => fs.flatMap(([n, v]) => [n, v])
/** What Bun's `toJSON()` answers: lower-cased names, repeated fields joined with `, `, `set-cookie` a list. */
const record = (fs: ReadonlyArray<Field>) => {
  const out: Record<string, string | Array<string>> = {}
  for (const [n, v] of fs) {
    const key = n.toLowerCase()
    const seen = out[key]
    if (key === "set-cookie") out[key] = [...((seen as Array<string> | undefined) ?? []), v]
    else out[key] = seen === undefined ? v : `${seen}, ${v}`
  }
  return out
}

describe("header fields over the limit are counted alike whichever way they came in (docs/decisions.md)", () => {
  it("the raw list, a Headers and a record of fields give the same verdict, and the same count above the limit", () => {
    fc.assert(
      fc.property(fields, fc.integer({ min: 0, max: 120 }), (fs, limit) => {
        const counts = [
          rawHeaderBytes(flat(fs), limit),
          headerBytes(new Headers(fs as Array<[string, string]>), limit),
          headerBytes(Object.entries(record(fs)), limit),
        ]
        const over = counts.map((n) => n > limit)
        expect(new Set(over).size).toBe(1)
        if (over[0]) expect(new Set(counts).size).toBe(1)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe("a field read from the raw list or from Deno's held pairs is what Fetch's Headers.get answers", () => {
  it("repeated fields joined with `, `, the name matched whatever its case, absent as undefined", () => {
    fc.assert(
      fc.property(fields, name, (fs, asked) => {
        const fetched = new Headers(fs as Array<[string, string]>).get(asked) ?? undefined
        for (const lookup of [rawHeaderLookup(flat(fs)), fieldListLookup(fs)]) {
          expect(lookup(asked)).toBe(fetched)
          expect(lookup(asked.toLowerCase())).toBe(fetched)
        }
      }),
      { numRuns: 2_000 },
    )
  })
})
