/**
 * The DNS simulator (DECISIONS 8.3): sender domains' records as the console set them (`PUT /simulator/dns/records`),
 * in the store so every process reads the same. A name with no record answers nothing, as NXDOMAIN would.
 */
import { Effect, Layer } from "effect"
import { dnsName } from "../../core/email/records.ts"
import { DnsRecords } from "../../ports/dns.ts"
import { SimulatedDnsRepo } from "../../ports/store/email-simulator.ts"

export const DnsRecordsSimulator = Layer.effect(
  DnsRecords,
  Effect.map(SimulatedDnsRepo, (records) => ({
    txt: (name) => records.get("TXT", dnsName(name)),
    cname: (name) => Effect.map(records.get("CNAME", dnsName(name)), (targets) => targets.map(dnsName)),
  })),
)
