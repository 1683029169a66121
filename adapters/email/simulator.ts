/**
 * The e-mail provider simulator (DECISIONS 8.3): every message it takes goes to the simulated inbox in the store
 * (console `GET /simulator/email?to=`), except to `refused@example.com`, refused at once (`502 send_failed`,
 * `provider_code: "simulated_refusal"`). It never reports by itself: the console's report moves a message.
 */
import { Clock, Effect, Layer } from "effect"
import { EmailProvider, EmailRefused } from "../../ports/email.ts"
import { SimulatedEmailRepo } from "../../ports/store/email-simulator.ts"

/** The address the simulator refuses. */
export const SimulatedRefusalAddress = "refused@example.com"

export const EmailProviderSimulator = Layer.effect(
  EmailProvider,
  Effect.map(SimulatedEmailRepo, (inbox) => ({
    send: (email) =>
      Effect.gen(function* () {
        if (email.to.toLowerCase() === SimulatedRefusalAddress) {
          return yield* new EmailRefused({
            providerCode: "simulated_refusal",
            message: "The simulated provider refused the message.",
          })
        }
        yield* inbox.append({
          id: email.id,
          from: email.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          sentAt: yield* Clock.currentTimeMillis,
        })
        // The simulator's reports name the platform's id.
        return { providerMessageId: email.id }
      }),
  })),
)
