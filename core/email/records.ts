/**
 * The three DNS records a sender domain publishes (DECISIONS 8.2), and their check through the DNS port: `spf`
 * TXT at the domain holding `include:spf.mail.svc.sa`, `dkim` TXT at `svc._domainkey.<domain>` equal to the
 * domain's key, `return_path` CNAME `bounces.<domain>` → `bounces.mail.svc.sa`.
 */
import { Effect } from "effect"
import type { DnsRecords } from "../../ports/dns.ts"
import { Email } from "../limits.ts"
import type { DomainRecord } from "./model.ts"

/** A name as DNS compares it: any case, with or without the final dot. */
export const dnsName = (name: string): string => name.trim().toLowerCase().replace(/\.$/, "")

export const recordsFor = (domain: string, publicKeyBase64: string): ReadonlyArray<DomainRecord> => [
  { purpose: "spf", type: "TXT", name: domain, value: `v=spf1 ${Email.spfInclude} ~all`, verified: false },
  {
    purpose: "dkim",
    type: "TXT",
    name: `${Email.dkimSelector}._domainkey.${domain}`,
    value: `v=DKIM1; k=rsa; p=${publicKeyBase64}`,
    verified: false,
  },
  { purpose: "return_path", type: "CNAME", name: `bounces.${domain}`, value: Email.bounceDomain, verified: false },
]

/** A DKIM record's tags, white space ignored (`v=DKIM1; k=rsa; p=…`). */
const dkimTags = (value: string) =>
  new Map(
    value.split(";").map((part) => part.replace(/\s+/g, "")).filter((p) => p !== "").map((p) => {
      const eq = p.indexOf("=")
      return [p.slice(0, eq).toLowerCase(), p.slice(eq + 1)] as const
    }),
  )

/** Whether what DNS answered at a record's name matches it. */
export const matches = (record: DomainRecord, found: ReadonlyArray<string>): boolean => {
  switch (record.purpose) {
    case "spf":
      return found.some((txt) => {
        const terms = txt.trim().toLowerCase().split(/\s+/)
        return terms[0] === "v=spf1" && terms.includes(Email.spfInclude)
      })
    case "dkim": {
      const wanted = dkimTags(record.value)
      return found.some((txt) => {
        const tags = dkimTags(txt)
        return (tags.get("v") ?? "DKIM1") === "DKIM1" && (tags.get("k") ?? "rsa") === "rsa" &&
          tags.get("p") === wanted.get("p")
      })
    }
    case "return_path":
      return found.some((target) => target.toLowerCase().replace(/\.$/, "") === record.value)
  }
}

/** Each record checked through the DNS port; a resolver that fails finds nothing (the next check tries again). */
export const checkRecords = (records: ReadonlyArray<DomainRecord>, dns: DnsRecords["Type"]) =>
  Effect.forEach(records, (r) =>
    Effect.map(
      Effect.orElseSucceed(r.type === "TXT" ? dns.txt(r.name) : dns.cname(r.name), () => [] as ReadonlyArray<string>),
      (found): DomainRecord => ({ ...r, verified: matches(r, found) }),
    ))
