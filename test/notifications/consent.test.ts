/**
 * Inbound texts as consent signals (DECISIONS 7.3): core/notifications/consent.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { consentSignal } from "../../core/notifications/consent.ts"

describe("opt-out: the text, trimmed and case-folded, is `stop`, `unsubscribe`, `إيقاف` or `ايقاف`", () => {
  it.each(["stop", "STOP", "Stop", "sToP", "unsubscribe", "UNSUBSCRIBE", "إيقاف", "ايقاف"])("%j", (text) => {
    expect(consentSignal(text)).toBe("opt_out")
  })

  it.each([
    ["spaces and a new line", "  stop\n"],
    ["tab", "\tSTOP\t"],
    ["no-break space", "\u00a0stop\u00a0"],
    ["ideographic space", "\u3000إيقاف\u3000"],
    ["NEL (U+0085)", "\u0085stop\u0085"],
    ["line separator", "\u2028unsubscribe\u2029"],
    ["BOM", "\ufeffstop"],
  ])("trimmed of Unicode white space: %s", (_, text) => {
    expect(consentSignal(text)).toBe("opt_out")
  })

  it("NFC: `إ` written as `ا` + U+0655 (hamza below) is `إيقاف`", () => {
    const decomposed = "\u0627\u0655\u064a\u0642\u0627\u0641"
    expect(decomposed).not.toBe("إيقاف")
    expect(decomposed.normalize("NFC")).toBe("إيقاف")
    expect(consentSignal(decomposed)).toBe("opt_out")
  })
})

describe("opt-in: `start` or `ابدأ`", () => {
  it.each(["start", "START", " Start ", "ابدأ", "\nابدأ\n"])("%j", (text) => {
    expect(consentSignal(text)).toBe("opt_in")
  })

  it("NFC: `أ` written as `ا` + U+0654 (hamza above) is `ابدأ`", () => {
    expect(consentSignal("\u0627\u0628\u062f\u0627\u0654")).toBe("opt_in")
  })
})

describe("anything else is no signal", () => {
  it.each([
    "",
    "   ",
    "stop please",
    "please stop",
    "s top",
    "stopp",
    "STOP!",
    "unsubscribed",
    "starts",
    "ابدا",
    "إيقافه",
    "stop\u0000",
    "ｓｔｏｐ",
    "\u200bstop",
  ])("%j", (text) => {
    expect(consentSignal(text)).toBeUndefined()
  })

  it.prop(
    "a text that holds a letter besides the word is never a signal",
    [fc.constantFrom("stop", "unsubscribe", "إيقاف", "ايقاف", "start", "ابدأ"), fc.constantFrom("x", "ب", "1")],
    ([word, extra]) => {
      expect(consentSignal(word + extra)).toBeUndefined()
      expect(consentSignal(extra + word)).toBeUndefined()
      expect(consentSignal(`${word} ${extra}`)).toBeUndefined()
    },
  )

  it.prop(
    "white space around a word never changes its signal",
    [
      fc.constantFrom("stop", "unsubscribe", "إيقاف", "ايقاف", "start", "ابدأ"),
      fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\u0085") }),
      fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u202f", "\u205f") }),
    ],
    ([word, before, after]) => {
      expect(consentSignal(before + word.toUpperCase() + after)).toBe(consentSignal(word))
    },
  )
})
