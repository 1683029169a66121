/**
 * Money into the wallet (DECISIONS 12, 14): top-up links paid through the payment provider, proformas settled
 * by bank transfer, each crediting the wallet `amount_halalas` (VAT on top) in the transaction that marks it
 * paid. A link or proforma is paid once: paying it again, or an expired one, is `409 invalid_state`.
 */
import { Clock, Effect, Option } from "effect"
import { PaymentProvider } from "../../ports/payments.ts"
import { Documents } from "../../ports/documents.ts"
import { Secrets } from "../../ports/secrets.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import {
  type Card,
  type Proforma,
  ProformasRepo,
  type TopupLink,
  TopupLinksRepo,
  WalletRepo,
} from "../../ports/store/wallet.ts"
import { InvalidState } from "../accounts/errors.ts"
import { notFound } from "../errors.ts"
import { fieldsRefused } from "../pipeline/decode.ts"
import { Wallet } from "../limits.ts"
import type { AccountId } from "../shared/brands.ts"
import { isUuid } from "../shared/brands.ts"
import { isoMillis, riyadhMonth } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { withVat } from "./money.ts"

export type PaidStatus = "open" | "paid" | "expired"

/** A record's status as read at `now`: an open one past its expiry is `expired`. */
export const statusAt = (r: { status: "open" | "paid"; expiresAt: number }, now: number): PaidStatus =>
  r.status === "paid" ? "paid" : now >= r.expiresAt ? "expired" : "open"

export const linkJson = (l: TopupLink, now: number) => ({
  id: l.id,
  url: l.url,
  status: statusAt(l, now),
  amount_halalas: l.amountHalalas,
  vat_halalas: l.vatHalalas,
  total_halalas: l.totalHalalas,
  expires_at: isoMillis(l.expiresAt),
  created_at: isoMillis(l.createdAt),
})

export const proformaJson = (p: Proforma, now: number) => ({
  id: p.id,
  number: p.number,
  status: statusAt(p, now),
  amount_halalas: p.amountHalalas,
  vat_percent: Wallet.vatPercent,
  vat_halalas: p.vatHalalas,
  total_halalas: p.totalHalalas,
  buyer: { name: p.buyer.name, vat_number: p.buyer.vatNumber, address: p.buyer.address },
  bank: { iban: p.iban, reference: p.number },
  issued_at: isoMillis(p.issuedAt),
  expires_at: isoMillis(p.expiresAt),
})

/** `PF-YYYY-NNNNNN`. */
export const proformaNumber = (year: number, n: number): string => `PF-${year}-${String(n).padStart(6, "0")}`

export interface ProformaInput {
  readonly amount_halalas: number
  readonly buyer: { readonly name: string; readonly vat_number?: string; readonly address?: string }
}

const notOpen = (what: string, status: PaidStatus) =>
  new InvalidState({ message: `The ${what} is ${status}: only an open one can be paid.`, status })

export class WalletTopups extends Effect.Service<WalletTopups>()("core/WalletTopups", {
  effect: Effect.gen(function* () {
    const tx = yield* Transactor
    const wallet = yield* WalletRepo
    const links = yield* TopupLinksRepo
    const proformas = yield* ProformasRepo
    const provider = yield* PaymentProvider
    const secrets = yield* Secrets
    const documents = yield* Documents

    /** `wallet.topups.link`: a payment page for the amount and its VAT, open for 24 hours. */
    const createLink = Effect.fn("WalletTopups.createLink", untracedStacks)(
      function* (accountId: AccountId, amountHalalas: number) {
        const now = yield* Clock.currentTimeMillis
        const id = yield* secrets.uuid
        const money = withVat(amountHalalas)
        const expiresAt = now + Wallet.topupLinkLifetimeMs
        const { url } = yield* provider.createLink({ reference: id, totalHalalas: money.total_halalas, expiresAt })
        const link: TopupLink = {
          id,
          accountId,
          url,
          status: "open",
          amountHalalas,
          vatHalalas: money.vat_halalas,
          totalHalalas: money.total_halalas,
          expiresAt,
          createdAt: now,
          paidAt: null,
        }
        yield* links.insert(link)
        return linkJson(link, now)
      },
    )

    /**
     * The provider says the link was paid: the link `paid` and the wallet credited (method `link`) together;
     * with `card`, the card is saved on the account for auto top-ups.
     */
    const payLink = Effect.fn("WalletTopups.payLink", untracedStacks)(function* (id: string, card: Card | null) {
      if (!isUuid(id)) return yield* notFound
      return yield* tx.withTransaction(Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* links.getForUpdate(id)
        if (Option.isNone(found)) return yield* notFound
        const link = found.value
        const status = statusAt(link, now)
        if (status !== "open") return yield* notOpen("top-up link", status)
        yield* links.markPaid(id, now)
        yield* wallet.topUp({
          id,
          accountId: link.accountId,
          method: "link",
          amountHalalas: link.amountHalalas,
          at: now,
        })
        if (card !== null) {
          const settings = yield* wallet.settingsForUpdate(link.accountId)
          yield* wallet.saveSettings(link.accountId, { ...settings, card })
        }
        return linkJson({ ...link, status: "paid", paidAt: now }, now)
      }))
    })

    /**
     * A buyer whose name or address has a character the proforma's document cannot show is refused (DECISIONS
     * 18: the PDF renders every name the proforma accepted): `400 invalid_request`, the field `invalid`, its
     * message naming up to 8 of those characters.
     */
    const unrenderableBuyer = Effect.fnUntraced(function* (buyer: ProformaInput["buyer"]) {
      const fields: Record<string, string> = {}
      for (const [name, text] of [["buyer.name", buyer.name], ["buyer.address", buyer.address]] as const) {
        if (text === undefined) continue
        const chars = yield* documents.unrenderable(text)
        if (chars.length > 0) {
          fields[name] = `has characters the proforma's document cannot show: ${chars.slice(0, 8).join(" ")}`
        }
      }
      const names = Object.keys(fields)
      if (names.length === 0) return
      return yield* fieldsRefused(fields, Object.fromEntries(names.map((n) => [n, "invalid"])))
    })

    /**
     * `wallet.proformas.create`: numbered from the Riyadh year's counter in the proforma's own transaction, so
     * numbers have no gaps or repeats whatever the processes.
     */
    const createProforma = Effect.fn("WalletTopups.createProforma", untracedStacks)(
      function* (accountId: AccountId, input: ProformaInput) {
        yield* unrenderableBuyer(input.buyer)
        const id = yield* secrets.uuid
        const money = withVat(input.amount_halalas)
        return yield* tx.withTransaction(Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const year = Number(riyadhMonth(now).slice(0, 4))
          const n = yield* proformas.nextNumber(year)
          const proforma: Proforma = {
            id,
            accountId,
            number: proformaNumber(year, n),
            status: "open",
            amountHalalas: input.amount_halalas,
            vatHalalas: money.vat_halalas,
            totalHalalas: money.total_halalas,
            buyer: {
              name: input.buyer.name,
              vatNumber: input.buyer.vat_number ?? null,
              address: input.buyer.address ?? null,
            },
            iban: Wallet.bankIban,
            issuedAt: now,
            expiresAt: now + Wallet.proformaLifetimeMs,
            paidAt: null,
          }
          yield* proformas.insert(proforma)
          return proformaJson(proforma, now)
        }))
      },
    )

    /** The console: the bank transfer arrived; the proforma `paid` and the wallet credited (`bank_transfer`). */
    const settleProforma = Effect.fn("WalletTopups.settleProforma", untracedStacks)(function* (id: string) {
      if (!isUuid(id)) return yield* notFound
      return yield* tx.withTransaction(Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = yield* proformas.getForUpdate(id)
        if (Option.isNone(found)) return yield* notFound
        const p = found.value
        const status = statusAt(p, now)
        if (status !== "open") return yield* notOpen("proforma", status)
        yield* proformas.markPaid(id, now)
        yield* wallet.topUp({
          id,
          accountId: p.accountId,
          method: "bank_transfer",
          amountHalalas: p.amountHalalas,
          at: now,
        })
        return proformaJson({ ...p, status: "paid", paidAt: now }, now)
      }))
    })

    /** A proforma of the account (another account's, or none: `not_found`). */
    const proformaOf = (accountId: AccountId, id: string) =>
      Effect.flatMap(
        isUuid(id) ? proformas.get(id) : Effect.succeedNone,
        (found) => Option.isNone(found) || found.value.accountId !== accountId ? notFound : Effect.succeed(found.value),
      )

    /** A proforma of the account as a PDF (another account's, or none: `not_found`). */
    const proformaPdf = Effect.fn("WalletTopups.proformaPdf", untracedStacks)(
      function* (accountId: AccountId, id: string) {
        const p = proformaJson(yield* proformaOf(accountId, id), yield* Clock.currentTimeMillis)
        const bytes = yield* documents.proformaPdf({
          number: p.number,
          issuedAt: p.issued_at,
          expiresAt: p.expires_at,
          buyer: { name: p.buyer.name, vatNumber: p.buyer.vat_number ?? null, address: p.buyer.address ?? null },
          amountHalalas: p.amount_halalas,
          vatPercent: p.vat_percent,
          vatHalalas: p.vat_halalas,
          totalHalalas: p.total_halalas,
          iban: p.bank.iban,
          reference: p.bank.reference,
        })
        return { number: p.number, bytes }
      },
    )

    return { createLink, payLink, createProforma, settleProforma, proformaOf, proformaPdf } as const
  }),
}) {}
