/**
 * Documents as PDF with pdf-lib (pure JavaScript: the same on Node, Deno and Bun). A proforma is one A4 page:
 * the seller, the buyer, the amount, VAT and total in SAR, and the bank transfer's IBAN and reference.
 */
import { Effect, Layer } from "effect"
import { PDFDocument, StandardFonts } from "pdf-lib"
import { Documents, type ProformaDocument } from "../../ports/documents.ts"

/** Halalas as SAR with two decimals: 11500 → "115.00". */
const sar = (halalas: number): string => `${Math.floor(halalas / 100)}.${String(halalas % 100).padStart(2, "0")}`

const proformaPdf = (p: ProformaDocument) =>
  Effect.promise(async () => {
    const doc = await PDFDocument.create()
    doc.setTitle(`Proforma ${p.number}`)
    doc.setCreationDate(new Date(p.issuedAt))
    doc.setModificationDate(new Date(p.issuedAt))
    const page = doc.addPage([595.28, 841.89]) // A4
    const font = await doc.embedFont(StandardFonts.Helvetica)
    const bold = await doc.embedFont(StandardFonts.HelveticaBold)
    let y = 780
    const line = (text: string, options: { bold?: boolean; size?: number; gap?: number } = {}) => {
      page.drawText(text, { x: 56, y, size: options.size ?? 11, font: options.bold ? bold : font })
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

export const DocumentsPdfLib = Layer.succeed(Documents, { proformaPdf })
