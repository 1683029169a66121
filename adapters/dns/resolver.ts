/**
 * DNS records (ports/dns.ts) read with `node:dns/promises`' `Resolver` (Node, Deno and Bun): the machine's
 * resolvers, or the servers given (`["127.0.0.1:5353"]`, `["[::1]:53"]`). A name with no such record (NXDOMAIN,
 * NODATA) is an empty list; no answer in time, SERVFAIL, a refused query or an unreachable server is `DnsFailure`
 * (the sender-domain check tries again later, core/email/records.ts). The strings of one TXT record are joined
 * (RFC 7208 3.3; a 2048-bit DKIM key does not fit in one).
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

/**
 * Bun (1.4) answers each string of a TXT record as a record of its own (oven-sh/bun#21370), so a DKIM key past 255
 * bytes arrives cut in two. There the strings are put back together: a string starting `v=` (DKIM, SPF, DMARC)
 * opens a record, the strings after it that do not continue it; any other string before one is a record alone.
 */
export const rejoinSplitTxt = (records: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<string> => {
  const out: Array<string> = []
  let open = false
  for (const piece of records.flat()) {
    if (/^v=/i.test(piece) || !open) {
      out.push(piece)
      open = /^v=/i.test(piece)
    } else out[out.length - 1] += piece
  }
  return out
}

const onBun = "Bun" in globalThis

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
        Effect.map((records) => onBun ? rejoinSplitTxt(records ?? []) : (records ?? []).map((s) => s.join(""))),
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
