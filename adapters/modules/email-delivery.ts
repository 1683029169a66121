/**
 * Email's providers (ports/email.ts, ports/dns.ts): the e-mail provider chosen by `EMAIL_PROVIDER` (the simulator
 * of DECISIONS 8.3, or SMTP) and the DNS reader by `DNS_PROVIDER` (the simulator, or the system's resolvers).
 * Email comes after it in the list; the simulators keep their state in the `email-simulator` product's tables.
 */
import { Effect, Layer } from "effect"
import type { DnsRecords } from "../../ports/dns.ts"
import { EmailProvider } from "../../ports/email.ts"
import type { SimulatedDnsRepo, SimulatedEmailRepo } from "../../ports/store/email-simulator.ts"
import { dnsRecordsResolver } from "../dns/resolver.ts"
import { DnsRecordsSimulator } from "../dns/simulator.ts"
import { EmailProviderSimulator } from "../email/simulator.ts"
import { smtpEmailProvider, smtpSettingsFromEnv } from "../email/smtp.ts"
import { product } from "../product.ts"
import { loggedCalls } from "../provider-log.ts"

/** The e-mail providers by the `EMAIL_PROVIDER` value that selects each. */
export const emailProviders: Readonly<Record<string, Layer.Layer<EmailProvider, never, SimulatedEmailRepo>>> = {
  simulator: EmailProviderSimulator,
  // A missing or malformed SMTP_* setting stops the start, naming the setting.
  smtp: Layer.orDie(Layer.unwrapEffect(Effect.map(smtpSettingsFromEnv, smtpEmailProvider))),
}

/** The DNS readers by the `DNS_PROVIDER` value that selects each. */
export const dnsProviders: Readonly<Record<string, Layer.Layer<DnsRecords, never, SimulatedDnsRepo>>> = {
  simulator: DnsRecordsSimulator,
  system: dnsRecordsResolver(),
}

const chosen = <A, R>(setting: string, value: string, offered: Readonly<Record<string, Layer.Layer<A, never, R>>>) =>
  offered[value] ?? Layer.die(new Error(`${setting}=${value} names none; known: ${Object.keys(offered).join(", ")}`))

/** The chosen provider's sends logged (adapters/provider-log.ts). */
const logged = (name: string, provider: Layer.Layer<EmailProvider, never, SimulatedEmailRepo>) =>
  Layer.effect(EmailProvider, Effect.map(EmailProvider, (p) => loggedCalls("email", name, p))).pipe(
    Layer.provide(provider),
  )

export const emailDeliveryProduct = product({
  name: "email-delivery",
  services: (settings) =>
    Layer.merge(
      logged(settings.emailProvider, chosen("EMAIL_PROVIDER", settings.emailProvider, emailProviders)),
      chosen("DNS_PROVIDER", settings.dnsProvider, dnsProviders),
    ),
})
