/**
 * Any two of start, resend, cancel, check, a top-up and a charge raced on one wallet (DECISIONS 3 and 12): never
 * a 5xx, and no halala lost or made: after each race the balance equals credits − charges + refunds, never goes
 * below zero, and equals what the answers account for (the initial balance, plus each top-up, less 9 for each
 * send answered 200 and each charge taken); one text went out for each send answered 200.
 * Over HTTP (the charge through the wallet's `charge`, as a product's send takes it) on the memory store, PGlite
 * and PostgreSQL (when DATABASE_URL is set).
 */
import { Effect, Exit, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { errorStatuses } from "../../adapters/products.ts"

const HttpStatus = errorStatuses()
import type { AccountId, Millis } from "../../core/shared/brands.ts"
import { charge } from "../../core/wallet/charge.ts"
import { AccountsRepo } from "../../ports/store/accounts.ts"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { latestCode, onEveryStore, setupApplication, type TestServer } from "../support/server.ts"
import { texts } from "./http-harness.ts"

const price = 9
let seq = 0
const fresh = () => `+9665570${String(++seq).padStart(5, "0")}`

type Op =
  | { readonly _tag: "start" }
  | { readonly _tag: "resend"; readonly which: number }
  | { readonly _tag: "cancel"; readonly which: number }
  | { readonly _tag: "check"; readonly which: number; readonly right: boolean }
  | { readonly _tag: "topup"; readonly amount: number }
  | { readonly _tag: "charge"; readonly amount: number }

const which = fc.nat({ max: 7 })
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ _tag: "start" }),
  which.map((w): Op => ({ _tag: "resend", which: w })),
  which.map((w): Op => ({ _tag: "cancel", which: w })),
  fc.tuple(which, fc.boolean()).map(([w, right]): Op => ({ _tag: "check", which: w, right })),
  fc.integer({ min: 1, max: 30 }).map((amount): Op => ({ _tag: "topup", amount })),
  fc.integer({ min: 1, max: 20 }).map((amount): Op => ({ _tag: "charge", amount })),
)

/** What an operation did to the money: halalas in (top-up) or out (a send or a charge), and texts sent. */
interface Outcome {
  readonly status: number
  readonly halalas: number
  readonly texts: number
}

const run = (server: () => TestServer, numRuns: number) => async () => {
  const s = server()
  const wallet = <A>(f: (w: WalletRepo["Type"]) => Effect.Effect<A>) =>
    s.platform.runtime.runPromise(Effect.flatMap(WalletRepo, f))
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 40 }),
      fc.array(fc.tuple(opArb, opArb), { minLength: 1, maxLength: 6 }),
      async (initial, races) => {
        // Two codes started before the races, so that resend, cancel and check have something to act on.
        const { account, key } = await setupApplication(s, { balance: initial + 2 * price })
        const accountId = account.id as AccountId
        const codes: Array<{ id: string; to: string }> = []
        for (let i = 0; i < 2; i++) {
          const to = fresh()
          const started = await s.call("POST", "/v1/verify/start", { key, body: { to } })
          expect(started.status).toBe(200)
          codes.push({ id: started.body.id, to })
        }
        const pick = (w: number) => codes[w % codes.length]

        const perform = async (op: Op): Promise<Outcome> => {
          switch (op._tag) {
            case "start": {
              const to = fresh()
              const res = await s.call("POST", "/v1/verify/start", { key, body: { to } })
              if (res.status === 200) codes.push({ id: res.body.id, to })
              return { status: res.status, halalas: res.status === 200 ? -price : 0, texts: res.status === 200 ? 1 : 0 }
            }
            case "resend": {
              const res = await s.call("POST", `/v1/verify/${pick(op.which).id}/resend`, { key, body: {} })
              return { status: res.status, halalas: res.status === 200 ? -price : 0, texts: res.status === 200 ? 1 : 0 }
            }
            case "cancel": {
              const res = await s.call("POST", `/v1/verify/${pick(op.which).id}/cancel`, { key, body: {} })
              return { status: res.status, halalas: 0, texts: 0 }
            }
            case "check": {
              const { id, to } = pick(op.which)
              const code = op.right ? await latestCode(s, to) : "0"
              const res = await s.call("POST", "/v1/verify/check", { key, body: { id, code } })
              return { status: res.status, halalas: 0, texts: 0 }
            }
            case "topup": {
              const res = await s.call("POST", `/console/v1/accounts/${accountId}/wallet/credit`, {
                key: s.consoleToken,
                body: { amount_halalas: op.amount },
              })
              return { status: res.status, halalas: res.status === 200 ? op.amount : 0, texts: 0 }
            }
            case "charge": {
              const exit = await s.platform.runtime.runPromise(Effect.exit(Effect.gen(function* () {
                const owner = Option.getOrThrow(yield* (yield* AccountsRepo).get(accountId))
                return yield* charge({
                  account: owner,
                  priceHalalas: op.amount,
                  product: "verify",
                  reference: "race",
                  at: Date.now() as Millis,
                })
              })))
              if (Exit.isSuccess(exit)) return { status: 200, halalas: -op.amount, texts: 0 }
              const failure = Option.getOrUndefined(
                Exit.causeOption(exit).pipe(
                  Option.flatMap((cause) => Option.fromNullable(cause._tag === "Fail" ? cause.error : undefined)),
                ),
              )
              return { status: failure === undefined ? 500 : HttpStatus[failure._tag], halalas: 0, texts: 0 }
            }
          }
        }

        let expected = initial
        let sent = 2
        for (const [a, b] of races) {
          const outcomes = await Promise.all([perform(a), perform(b)])
          for (const [i, o] of outcomes.entries()) {
            expect(o.status, `${JSON.stringify([a, b][i])} answered ${o.status}`).toBeLessThan(500)
            expected += o.halalas
            sent += o.texts
          }
          const balance = await wallet((w) => w.balance(accountId))
          const ledger = await wallet((w) => w.summary(accountId, 0))
          expect(balance).toBe(ledger.credits - ledger.charges + ledger.refunds)
          expect(balance).toBeGreaterThanOrEqual(0)
          expect(balance, JSON.stringify({ initial, races })).toBe(expected)
        }
        let delivered = 0
        for (const to of new Set(codes.map((c) => c.to))) delivered += (await texts(s, to)).length
        expect(delivered).toBe(sent)
      },
    ),
    { numRuns },
  )
}

const rules = (server: () => TestServer, numRuns: number) =>
  describe("any two of start, resend, cancel, check, top-up and charge raced on one wallet: no 5xx, no halala lost", () => {
    it(
      "balance = credits − charges + refunds = the initial balance + top-ups − what each answered send and charge took",
      run(server, numRuns),
      300_000,
    )
  })

// Real concurrency on PostgreSQL: enough runs that a race lost under a row lock comes up every time.
onEveryStore((server, store) => rules(server, { memory: 40, PGlite: 25, PostgreSQL: 150 }[store]))
