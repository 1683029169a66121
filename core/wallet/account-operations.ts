/**
 * The wallet in the account API (DECISIONS 10, 11, 12): the read, a top-up link, a proforma. Owners and admins
 * only; the two creates answer 201 and are not repeatable (each call makes a new record).
 */
import { Effect, Schema } from "effect"
import { ownerOrAdmin } from "../accounts/callers.ts"
import { InvalidRequest, NotFound } from "../errors.ts"
import { Fields as FieldLimits } from "../limits.ts"
import { ErrorCode } from "../pipeline/decode.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { withoutControlCharacters } from "../shared/names.ts"
import { ProformaOutput, TopupAmount, TopupLinkOutput, WalletOutput } from "./operations.ts"
import { readWallet } from "./read.ts"
import { WalletTopups } from "./topups.ts"

const done = { status: 200, envelope: "data" } as const
const created = { status: 201, envelope: "data" } as const

export const TopupLinkBody = Schema.Struct({ amount_halalas: TopupAmount })

/** A Saudi VAT registration number: 15 digits, the first and the last `3` (DECISIONS 16). */
export const VatNumber = Schema.String.pipe(Schema.pattern(/^3\d{13}3$/)).annotations({
  [ErrorCode]: "invalid",
  description: "15 digits, the first and the last 3",
})

const Text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))

export const ProformaBody = Schema.Struct({
  amount_halalas: TopupAmount,
  buyer: Schema.Struct({
    name: withoutControlCharacters(Text(FieldLimits.maxNameLength)),
    vat_number: Schema.optional(VatNumber),
    address: Schema.optional(Text(500)),
  }),
})

export const walletAccountOperations = [
  operation({
    name: "wallet.show",
    summary: "The wallet read: balance and state, codes left, the month's spend and projection.",
    method: "GET",
    path: "/v1/account/wallet",
    caller: ownerOrAdmin,
    answer: done,
    parameters: [],
    body: undefined,
    output: WalletOutput,
    returns:
      "The wallet: balance_halalas, state, codes_left, the Riyadh month's spend, projection and spend by product, days_left, the low-balance alert, auto top-up, card and last top-up.",
    errors: [],
    idempotent: false,
    service: WalletTopups,
    run: (_t, p) => readWallet(p.account.id),
  }),
  operation({
    name: "wallet.topups.link",
    summary: "Makes a payment link to top up the wallet by `amount_halalas` (VAT 15 % on top), open for 24 hours.",
    method: "POST",
    path: "/v1/account/wallet/topups",
    caller: ownerOrAdmin,
    answer: created,
    parameters: [],
    body: TopupLinkBody,
    output: TopupLinkOutput,
    returns:
      "The top-up link: id, url to pay at, status open, amount_halalas, vat_halalas, total_halalas, expires_at (24 hours) and created_at.",
    repeatable: false,
    errors: [InvalidRequest],
    idempotent: true,
    service: WalletTopups,
    run: (t, p, input) => t.createLink(p.account.id, input.body.amount_halalas),
  }),
  operation({
    name: "wallet.proformas.create",
    summary: "Issues a proforma invoice to top up the wallet by bank transfer (VAT 15 % on top), open for 14 days.",
    method: "POST",
    path: "/v1/account/wallet/proformas",
    caller: ownerOrAdmin,
    answer: created,
    parameters: [],
    body: ProformaBody,
    output: ProformaOutput,
    returns:
      "The proforma: id, number PF-YYYY-NNNNNN, status open, amounts with vat_percent 15, the buyer, the bank's iban and the reference to quote, issued_at and expires_at (14 days).",
    repeatable: false,
    errors: [InvalidRequest],
    idempotent: true,
    service: WalletTopups,
    run: (t, p, input) => t.createProforma(p.account.id, input.body),
  }),
  operation({
    name: "wallet.proformas.pdf",
    summary: "A proforma of the account as a PDF file, to hand to whoever makes the bank transfer.",
    method: "GET",
    path: "/v1/account/wallet/proformas/{id}/pdf",
    caller: ownerOrAdmin,
    answer: done,
    parameters: [{ name: "id", in: "path", description: "The proforma's id", schema: Schema.UUID, required: true }],
    body: undefined,
    output: Schema.Unknown,
    produces: ["application/pdf"],
    returns: "The proforma as a PDF file (application/pdf): number, buyer, amount, VAT, total, IBAN and reference.",
    errors: [NotFound],
    idempotent: false,
    service: WalletTopups,
    locate: (t, p, params) => t.proformaOf(p.account.id, params.id ?? ""),
    run: (t, p, input) =>
      Effect.map(t.proformaPdf(p.account.id, input.params.id), (pdf) => ({
        status: 200,
        body: pdf.bytes,
        headers: {
          "content-type": "application/pdf",
          "content-disposition": `inline; filename="${pdf.number}.pdf"`,
        },
      })),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
