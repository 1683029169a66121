/** The wallet's console use case (DECISIONS 2): a credit to an account's wallet. */
import { Clock, Effect } from "effect"
import { WalletRepo } from "../../ports/store/wallet.ts"
import { Console } from "../console/service.ts"
import { Fields as FieldLimits } from "../limits.ts"
import { FieldReader } from "../shared/fields.ts"
import type { Json } from "../shared/json.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { readWallet } from "./read.ts"

export class WalletConsole extends Effect.Service<WalletConsole>()("core/WalletConsole", {
  effect: Effect.gen(function* () {
    const operator = yield* Console
    const wallet = yield* WalletRepo

    const creditWallet = Effect.fn("WalletConsole.creditWallet", untracedStacks)(
      function* (accountId: string, body: Json) {
        const owner = yield* operator.account(accountId)
        const f = new FieldReader(body)
        const amount = f.integer("amount_halalas", { required: true, min: 1, max: FieldLimits.maxCreditHalalas })
        if (f.error) return yield* f.error
        yield* wallet.add({
          accountId: owner.id,
          kind: "credit",
          amountHalalas: amount!,
          product: null,
          reference: "console",
          at: yield* Clock.currentTimeMillis,
        })
        return yield* readWallet(owner.id)
      },
    )

    return { creditWallet } as const
  }),
}) {}
