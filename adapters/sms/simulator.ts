/** The SMS simulator (DECISIONS 2): accepts and logs every text, except the magic refused number. */
import { Clock, Effect, Layer } from "effect"
import { SaudiMobile } from "../../core/shared/brands.ts"
import { SmsGateway, SmsRefused } from "../../ports/sms.ts"
import { SimulatedSmsRepo } from "../../ports/store/simulator.ts"
import { Secrets } from "../../ports/secrets.ts"

export const SimulatedRefusalNumber = SaudiMobile("+966500000001")

export const SmsGatewaySimulator = Layer.effect(
  SmsGateway,
  Effect.gen(function* () {
    const log = yield* SimulatedSmsRepo
    const secrets = yield* Secrets
    return {
      send: (sms) =>
        Effect.gen(function* () {
          if (sms.to === SimulatedRefusalNumber) {
            return yield* new SmsRefused({
              providerCode: "simulated_refusal",
              message: "The simulated network refused the message.",
            })
          }
          const id = yield* secrets.uuid
          yield* log.append({ id, to: sms.to, text: sms.text, sentAt: yield* Clock.currentTimeMillis })
          return { providerMessageId: id }
        }),
    }
  }),
)
