/**
 * A line of any direction as runs drawn left to right (adapters/documents/text.ts): the Unicode Bidirectional
 * Algorithm (bidi-js) orders the runs; fontkit shapes each and reverses a right-to-left one itself.
 */
import { describe, expect, it } from "vitest"
import { layoutText, visualRuns } from "../../adapters/documents/text.ts"

describe("a line's runs in visual order, left to right (UAX #9), each in its direction", () => {
  it("Latin alone is one left-to-right run", () => {
    expect(visualRuns("Acme Trading")).toEqual([{ text: "Acme Trading", rtl: false }])
  })

  it("a right-to-left line with Latin and digits: the digits leftmost, the first Arabic word rightmost", () => {
    expect(visualRuns("شركة ABC المحدودة 123")).toEqual([
      { text: "123", rtl: false },
      { text: " المحدودة ", rtl: true },
      { text: "ABC", rtl: false },
      { text: "شركة ", rtl: true },
    ])
  })

  it("a left-to-right line keeps an Arabic word in place, drawn right to left", () => {
    expect(visualRuns("Buyer: النور Ltd")).toEqual([
      { text: "Buyer: ", rtl: false },
      { text: "النور", rtl: true },
      { text: " Ltd", rtl: false },
    ])
  })

  it("brackets in a right-to-left run are mirrored", () => {
    expect(visualRuns("(مكة)")).toEqual([{ text: ")مكة(", rtl: true }])
  })

  it("format characters (bidi marks, joiners) order the line and are then left out when asked", () => {
    const invisible = (c: string) => /^\p{Default_Ignorable_Code_Point}$/u.test(c)
    expect(visualRuns("\u200Fشركة", invisible)).toEqual([{ text: "شركة", rtl: true }])
    expect(visualRuns("\u200F", invisible)).toEqual([])
  })
})

describe("the text handed to fontkit shows the run in its direction", () => {
  it("as it is when fontkit lays it out that way already (Arabic right to left, Latin and digits left to right)", () => {
    expect(layoutText({ text: "النور", rtl: true })).toBe("النور")
    expect(layoutText({ text: "ABC 123", rtl: false })).toBe("ABC 123")
  })

  it("reversed when fontkit would not: neutrals alone right to left, Arabic-Indic digits left to right", () => {
    expect(layoutText({ text: " - !", rtl: true })).toBe("! - ")
    expect(layoutText({ text: "١٢٣", rtl: false })).toBe("٣٢١")
  })
})
