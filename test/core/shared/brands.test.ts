import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as fc from "effect/FastCheck"
import { isUuid, Uuid } from "../../../core/shared/brands.ts"

const schemaAccepts = Schema.is(Uuid)

describe("ids are UUIDs: isUuid answers exactly what the Uuid schema accepts", () => {
  it("every UUID, in either case, is accepted by both", () =>
    fc.assert(fc.property(fc.uuid(), fc.boolean(), (id, upper) => {
      const s = upper ? id.toUpperCase() : id
      expect(isUuid(s)).toBe(true)
      expect(schemaAccepts(s)).toBe(true)
    })))

  it("a UUID with one character changed, dropped or added is judged alike by both", () =>
    fc.assert(fc.property(
      fc.uuid(),
      fc.nat(35),
      fc.constantFrom("g", "-", "", "0a", " ", "é"),
      (id, at, replacement) => {
        const s = id.slice(0, at) + replacement + id.slice(at + 1)
        expect(isUuid(s)).toBe(schemaAccepts(s))
      },
    )))

  it("any other value is judged alike by both", () =>
    fc.assert(fc.property(fc.anything(), (value) => {
      expect(isUuid(value)).toBe(schemaAccepts(value))
    })))

  it("not UUIDs: empty, braces, no dashes, trailing newline, not a string", () => {
    for (
      const value of [
        "",
        "{123e4567-e89b-12d3-a456-426614174000}",
        "123e4567e89b12d3a456426614174000",
        "123e4567-e89b-12d3-a456-426614174000\n",
        42,
        null,
      ]
    ) {
      expect(isUuid(value)).toBe(false)
      expect(schemaAccepts(value)).toBe(false)
    }
  })
})
