import { Context, Data, type Effect } from "effect"

/** The name did not resolve: no such name, no answer in time, no resolver. */
export class DnsFailure extends Data.TaggedError("DnsFailure")<{
  readonly message: string
}> {}

/** Resolves host names, as the machine's resolver does for an outgoing connection. */
export class DnsResolver extends Context.Tag("ports/DnsResolver")<DnsResolver, {
  /** Every address (IPv4 and IPv6, as text) the name resolves to, in the resolver's order; never empty. */
  readonly resolve: (name: string) => Effect.Effect<ReadonlyArray<string>, DnsFailure>
}>() {}

/**
 * Reads DNS records, as a sender domain's check does (DECISIONS 8.2): a name with no such record answers an empty
 * list (NXDOMAIN, NODATA), a resolver that does not answer fails.
 */
export class DnsRecords extends Context.Tag("ports/DnsRecords")<DnsRecords, {
  /** Each TXT record at `name`, its strings joined. */
  readonly txt: (name: string) => Effect.Effect<ReadonlyArray<string>, DnsFailure>
  /** The CNAME targets at `name`, lower-cased, without the final dot. */
  readonly cname: (name: string) => Effect.Effect<ReadonlyArray<string>, DnsFailure>
}>() {}
