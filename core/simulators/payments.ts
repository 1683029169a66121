/**
 * The payment simulator's console operation (DECISIONS 14), served only while `PAYMENT_PROVIDER` is
 * `simulator`: the payer pays a top-up link's page, optionally saving the card (`visa` `4242`).
 */
import { Either, Schema } from "effect"
import { InvalidState } from "../accounts/errors.ts"
import { InvalidRequest, NotFound } from "../errors.ts"
import { decodeWith } from "../pipeline/decode.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { TopupLinkOutput } from "../wallet/operations.ts"
import { WalletTopups } from "../wallet/topups.ts"

const PayBody = Schema.Struct({ save_card: Schema.optional(Schema.Boolean) })
const decodePay = decodeWith(PayBody)

/** The card a simulated payment saves; its token charges it again (auto top-up), and it always pays. */
export const simulatedCard = (linkId: string) => ({ brand: "visa", last4: "4242", token: `sim_card_${linkId}` })

export const paymentsSimulatorOperations = [
  operation({
    name: "console.simulator.topups.pay",
    summary: "Pays a top-up link as its payer would: the link `paid`, the wallet credited; `save_card` keeps the card.",
    method: "POST",
    path: "/console/v1/simulator/topups/{id}/pay",
    caller: { _tag: "Console" },
    answer: { status: 200, envelope: "data" },
    parameters: [{ name: "id", in: "path", description: "The top-up link's id", schema: Schema.UUID, required: true }],
    body: PayBody,
    decode: (r) => Either.map(decodePay(r.body ?? {}), (b) => ({ id: r.params.id, saveCard: b.save_card === true })),
    output: TopupLinkOutput,
    errors: [InvalidRequest, NotFound, InvalidState],
    idempotent: false,
    service: WalletTopups,
    run: (t, _, input) => t.payLink(input.id, input.saveCard ? simulatedCard(input.id) : null),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
