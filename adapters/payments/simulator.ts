/**
 * The payment simulator (`PAYMENT_PROVIDER=simulator`): a payment page per top-up link, paid through the
 * console (`POST /console/v1/simulator/topups/{id}/pay`), and saved cards that always pay.
 */
import { Effect, Layer } from "effect"
import { PaymentProvider } from "../../ports/payments.ts"
import { Secrets } from "../../ports/secrets.ts"

/** Where the simulator's payment pages live (nothing is served there: the console route pays them). */
export const SimulatedPaymentPages = "https://pay.simulator.invalid/topups"

export const PaymentProviderSimulator = Layer.effect(
  PaymentProvider,
  Effect.map(Secrets, (secrets) => ({
    createLink: (request) => Effect.succeed({ url: `${SimulatedPaymentPages}/${request.reference}` }),
    chargeCard: () => Effect.map(secrets.uuid, (id) => ({ paymentId: `sim_payment_${id}` })),
  })),
)
