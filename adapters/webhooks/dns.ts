/**
 * DNS resolvers for webhook targets: the machine's resolver (node:dns/promises `lookup`, as a connection
 * would resolve the name; Node, and Deno and Bun through their Node compatibility), and fixed answers for
 * tests.
 */
import { lookup } from "node:dns/promises"
import { Effect, Layer } from "effect"
import { DnsFailure, DnsResolver } from "../../ports/dns.ts"

/** Every address of `name` by the system resolver; fails after `timeoutMs` (the lookup itself cannot be stopped). */
export const SystemDnsResolver = (timeoutMs: number) =>
  Layer.succeed(DnsResolver, {
    resolve: (name) =>
      Effect.async<ReadonlyArray<string>, DnsFailure>((resume) => {
        let settled = false
        const settle = (effect: Effect.Effect<ReadonlyArray<string>, DnsFailure>) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          resume(effect)
        }
        const timer = setTimeout(
          () => settle(Effect.fail(new DnsFailure({ message: `no answer within ${timeoutMs} ms` }))),
          timeoutMs,
        )
        lookup(name, { all: true, verbatim: true }).then(
          (answers) =>
            settle(
              answers.length === 0
                ? Effect.fail(new DnsFailure({ message: "no address" }))
                : Effect.succeed(answers.map((a) => a.address)),
            ),
          (error: { code?: string; message?: string }) =>
            settle(Effect.fail(new DnsFailure({ message: error?.code ?? error?.message ?? String(error) }))),
        )
        return Effect.sync(() => {
          settled = true
          clearTimeout(timer)
        })
      }),
  })

/** Answers what `answer` says for a name (read at each lookup, so a test can change it); no answer is ENOTFOUND. */
export const FixedDnsResolver = (answer: (name: string) => ReadonlyArray<string> | undefined) =>
  Layer.succeed(DnsResolver, {
    resolve: (name) =>
      Effect.suspend(() => {
        const addresses = answer(name) ?? []
        return addresses.length === 0
          ? Effect.fail(new DnsFailure({ message: "ENOTFOUND" }))
          : Effect.succeed(addresses)
      }),
  })
