/**
 * DNS records (ports/dns.ts) read with `node:dns/promises`' `Resolver` (Node, Deno and Bun): the machine's
 * resolvers, or the servers given (`["127.0.0.1:5353"]`, `["[::1]:53"]`). A name with no such record (NXDOMAIN,
 * NODATA) is an empty list; no answer in time, SERVFAIL, a refused query or an unreachable server is `DnsFailure`
 * (the sender-domain check tries again later, core/email/records.ts).
 */
import { Resolver } from "node:dns/promises"
import { Duration, Effect, Layer } from "effect"
import { DnsFailure, DnsRecords } from "../../ports/dns.ts"

export interface DnsResolverSettings {
  /** `host` or `host:port` (`[v6]:port`) of each server to ask; the machine's resolvers when absent or empty. */
  readonly servers?: ReadonlyArray<string>
  /** Milliseconds one try waits for an answer (default 5 000). */
  readonly timeoutMs?: number
  /** Tries per server before giving up (default 2). */
  readonly tries?: number
}

/** The codes node:dns gives a name that exists without that record, or does not exist: nothing to find. */
const nothing = new Set(["ENOTFOUND", "ENODATA"])

const make = (settings: DnsResolverSettings): DnsRecords["Type"] => {
  const timeoutMs = settings.timeoutMs ?? 5_000
  const tries = settings.tries ?? 2
  // The resolver's own timer doubles per try; past this the query is abandoned whatever it says.
  const deadline = Duration.millis(timeoutMs * (2 ** tries) + 1_000)

  const query = <A>(
    what: string,
    name: string,
    ask: (resolver: Resolver, name: string) => Promise<A>,
  ): Effect.Effect<A | null, DnsFailure> =>
    Effect.async<A | null, DnsFailure>((resume) => {
      // One resolver per query: `cancel` ends every query of a resolver, and an interrupted one is only ours.
      const resolver = new Resolver({ timeout: timeoutMs, tries })
      if (settings.servers !== undefined && settings.servers.length > 0) resolver.setServers([...settings.servers])
      ask(resolver, name).then(
        (answer) => resume(Effect.succeed(answer)),
        (error: { readonly code?: string }) =>
          resume(
            nothing.has(error?.code ?? "")
              ? Effect.succeed(null)
              : Effect.fail(new DnsFailure({ message: `${what} ${name}: ${error?.code ?? "no answer"}` })),
          ),
      )
      return Effect.sync(() => resolver.cancel())
    }).pipe(
      Effect.timeoutFail({
        duration: deadline,
        onTimeout: () => new DnsFailure({ message: `${what} ${name}: no answer in ${Duration.format(deadline)}` }),
      }),
    )

  return DnsRecords.of({
    txt: (name) =>
      query("TXT", name, (r, n) => r.resolveTxt(n)).pipe(
        Effect.map((records) => (records ?? []).map((strings) => strings.join(""))),
        Effect.withSpan("DnsRecords.txt"),
      ),
    cname: (name) =>
      query("CNAME", name, (r, n) => r.resolveCname(n)).pipe(
        Effect.map((targets) => (targets ?? []).map((t) => t.toLowerCase().replace(/\.$/, ""))),
        Effect.withSpan("DnsRecords.cname"),
      ),
  })
}

/** DNS records from the machine's resolvers or the servers given. */
export const dnsRecordsResolver = (settings: DnsResolverSettings = {}): Layer.Layer<DnsRecords> =>
  Layer.sync(DnsRecords, () => make(settings))
