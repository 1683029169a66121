/**
 * Names (DECISIONS 18, as DECISIONS 7 does for parameters): no C0 or C1 control character, U+0000-U+001F and
 * U+007F-U+009F (tab, new line, BEL, ESC…), in any name a caller gives: a partner's client application, the
 * console's accounts and applications, a connected app, a proforma's buyer. Refused as `invalid`.
 */
import { Schema } from "effect"

/** True when `s` holds a C0 or C1 control character. */
export const hasControlCharacter = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true
  }
  return false
}

export const controlCharacterMessage = "must not contain control characters (U+0000-U+001F, U+007F-U+009F)"

/** A name's Schema refined: a control character anywhere is refused (`invalid`). */
export const withoutControlCharacters = <A extends string, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(Schema.filter((s) => !hasControlCharacter(s) || controlCharacterMessage))
