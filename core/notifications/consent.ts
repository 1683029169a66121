/**
 * A customer's text as a consent signal (DECISIONS 7.3): trimmed of Unicode white space and case-folded, `stop`,
 * `unsubscribe`, `إيقاف` or `ايقاف` opts out of marketing; `start` or `ابدأ` lifts it.
 */

export type ConsentSignal = "opt_out" | "opt_in"

const optOut = new Set(["stop", "unsubscribe", "إيقاف", "ايقاف"])
const optIn = new Set(["start", "ابدأ"])

// Unicode's White_Space (which holds U+0085, unlike String.prototype.trim) and the BOM, which trim drops too.
const edges = /^[\p{White_Space}\uFEFF]+|[\p{White_Space}\uFEFF]+$/gu

/** The text's signal, undefined when it is none: case-folded with toLowerCase, then NFC (`إ` written `ا` + U+0655). */
export const consentSignal = (text: string): ConsentSignal | undefined => {
  const folded = text.replace(edges, "").toLowerCase().normalize("NFC")
  return optOut.has(folded) ? "opt_out" : optIn.has(folded) ? "opt_in" : undefined
}
