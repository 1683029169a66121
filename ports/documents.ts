/** Documents the platform hands to people: the proforma invoice as a PDF (DECISIONS 12, suggested). */
import { Context, type Effect } from "effect"

/** What a proforma's document shows, in the words of the proforma's JSON. */
export interface ProformaDocument {
  readonly number: string
  readonly issuedAt: string
  readonly expiresAt: string
  readonly buyer: { readonly name: string; readonly vatNumber: string | null; readonly address: string | null }
  readonly amountHalalas: number
  readonly vatPercent: number
  readonly vatHalalas: number
  readonly totalHalalas: number
  readonly iban: string
  /** The transfer's reference (the proforma's number). */
  readonly reference: string
}

export class Documents extends Context.Tag("ports/Documents")<Documents, {
  /** The proforma as a PDF file. */
  readonly proformaPdf: (proforma: ProformaDocument) => Effect.Effect<Uint8Array>
  /** The characters of a text the documents cannot show (none: every character renders), each once. */
  readonly unrenderable: (text: string) => Effect.Effect<ReadonlyArray<string>>
}>() {}
