/**
 * Documents as PDF with pdf-lib (pure JavaScript: the same on Node, Deno and Bun). A proforma is one A4 page:
 * the seller, the buyer, the amount, VAT and total in SAR, and the bank transfer's IBAN and reference.
 *
 * Every line is set in DejaVu Sans (fonts.ts), embedded as the subset of glyphs the page uses, so a buyer's name
 * or address in Arabic, Latin or both renders (DECISIONS 18): the line's runs are put in visual order by the
 * Unicode Bidirectional Algorithm and each is shaped by the font's OpenType layout (text.ts). A character the
 * font has no glyph for is shown as U+FFFD; `wallet.proformas.create` refuses such a name or address
 * (`unrenderable`), so only a proforma stored before that rule can have one.
 */
import type { Context } from "effect"
import { Effect } from "effect"
import { PDFDocument, type PDFFont, type PDFPage } from "pdf-lib"
import type { Documents, ProformaDocument } from "../../ports/documents.ts"
import { hasGlyph, laysOut, loadFont, sharedFontkit } from "./fonts.ts"
import { layoutText, visualRuns } from "./text.ts"

/** Halalas as SAR with two decimals: 11500 → "115.00". */
const sar = (halalas: number): string => `${Math.floor(halalas / 100)}.${String(halalas % 100).padStart(2, "0")}`

/** Format characters (bidi marks, joiners, …) a font shows nothing for. */
const invisible = /^\p{Default_Ignorable_Code_Point}$/u

const fonts = () => Promise.all([loadFont("DejaVuSans.ttf"), loadFont("DejaVuSans-Bold.ttf")])

/**
 * The characters of `text` the documents' font cannot draw (a format character it has no glyph for aside), or
 * whose layout fails (each character is then tried alone).
 */
const unrenderable = (text: string) =>
  Effect.promise(async () => {
    const [regular] = await fonts()
    const chars = [...new Set(Array.from(text))].filter((c) => !invisible.test(c))
    const missing = chars.filter((c) => !hasGlyph(regular.font, c))
    if (missing.length > 0 || laysOut(regular.font, text)) return missing
    return chars.filter((c) => !laysOut(regular.font, c))
  })

/** Draws `text` from `x` rightwards, its runs in visual order, and answers where it ends. */
const drawLine = (page: PDFPage, text: string, at: { x: number; y: number; size: number; font: PDFFont }) => {
  let x = at.x
  for (const run of visualRuns(text, (c) => invisible.test(c))) {
    const shown = layoutText(run)
    page.drawText(shown, { x, y: at.y, size: at.size, font: at.font })
    x += at.font.widthOfTextAtSize(shown, at.size)
  }
  return x
}

const proformaPdf = (p: ProformaDocument) =>
  Effect.promise(async () => {
    const [regular, boldFace] = await fonts()
    const shown = (text: string) =>
      Array.from(text).map((c) => invisible.test(c) || hasGlyph(regular.font, c) ? c : "\uFFFD").join("")
    const doc = await PDFDocument.create()
    doc.registerFontkit(sharedFontkit([regular, boldFace]))
    doc.setTitle(`Proforma ${p.number}`)
    doc.setCreationDate(new Date(p.issuedAt))
    doc.setModificationDate(new Date(p.issuedAt))
    const page = doc.addPage([595.28, 841.89]) // A4
    const font = await doc.embedFont(regular.bytes, { subset: true })
    const bold = await doc.embedFont(boldFace.bytes, { subset: true })
    let y = 780
    const line = (text: string, options: { bold?: boolean; size?: number; gap?: number } = {}) => {
      drawLine(page, shown(text), { x: 56, y, size: options.size ?? 11, font: options.bold ? bold : font })
      y -= options.gap ?? 18
    }
    line("Proforma invoice", { bold: true, size: 20, gap: 30 })
    line(`Number: ${p.number}`)
    line(`Issued: ${p.issuedAt}`)
    line(`Valid until: ${p.expiresAt}`, { gap: 30 })
    line("Buyer", { bold: true })
    line(p.buyer.name)
    if (p.buyer.vatNumber !== null) line(`VAT number: ${p.buyer.vatNumber}`)
    if (p.buyer.address !== null) line(p.buyer.address)
    y -= 12
    line("Prepaid messaging credit", { bold: true })
    line(`Amount: SAR ${sar(p.amountHalalas)}`)
    line(`VAT ${p.vatPercent}%: SAR ${sar(p.vatHalalas)}`)
    line(`Total: SAR ${sar(p.totalHalalas)}`, { bold: true, gap: 30 })
    line("Pay by bank transfer", { bold: true })
    line(`IBAN: ${p.iban}`)
    line(`Reference: ${p.reference}`)
    line("The wallet is credited the amount once the transfer is received.", { size: 9 })
    return doc.save()
  })

export const renderer: Context.Tag.Service<Documents> = { proformaPdf, unrenderable }
