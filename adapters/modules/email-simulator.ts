/**
 * Email's simulators (DECISIONS 8.3): their tables (the DNS records the simulated resolver answers, the simulated
 * provider's inbox), wired while `EMAIL_PROVIDER` or `DNS_PROVIDER` is `simulator`, so a production store holds
 * none of it; and their console routes, each only while its own provider is the simulator.
 */
import { dnsSimulatorOperations, emailSimulatorOperations } from "../../core/email/console-operations.ts"
import { EmailSimulator } from "../../core/email/simulator.ts"
import { Layer } from "effect"
import { SimulatedDnsRepoMemory, SimulatedEmailRepoMemory } from "../memory/email-simulator.ts"
import { product } from "../product.ts"
import { SimulatedDnsRepoSql, SimulatedEmailRepoSql } from "../sql/email-simulator.ts"
import { migration as simulators } from "../sql/migrations/email-simulator/0001_email_simulator.ts"

export const emailSimulatorProduct = product({
  name: "email-simulator",
  selected: (settings) => settings.emailProvider === "simulator" || settings.dnsProvider === "simulator",
  memory: Layer.merge(SimulatedDnsRepoMemory, SimulatedEmailRepoMemory),
  sql: Layer.merge(SimulatedDnsRepoSql, SimulatedEmailRepoSql),
  migrations: [simulators],
  services: () => EmailSimulator.Default,
})

/** `POST /simulator/email/messages/{id}/report` and `GET /simulator/email`, while `EMAIL_PROVIDER` is `simulator`. */
export const emailProviderSimulatorProduct = product({
  name: "email-provider-simulator",
  selected: (settings) => settings.emailProvider === "simulator",
  operations: emailSimulatorOperations,
  tags: [{ name: "email-simulator", description: "The e-mail provider simulator (DECISIONS 8.3)." }],
})

/** `PUT /simulator/dns/records`, while `DNS_PROVIDER` is `simulator`. */
export const dnsSimulatorProduct = product({
  name: "dns-simulator",
  selected: (settings) => settings.dnsProvider === "simulator",
  operations: dnsSimulatorOperations,
  tags: [{ name: "dns-simulator", description: "The DNS simulator of sender domains' records (DECISIONS 8.3)." }],
})
