/** Email's simulators' store contract: the DNS records the resolver answers, the provider's log. */
import { assert, type Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { SimulatedDnsRepo, type SimulatedEmail, SimulatedEmailRepo } from "../../../ports/store/email-simulator.ts"
import type { AnyProduct } from "../../../adapters/product.ts"
import { products } from "../../../adapters/products.ts"
import { uuid } from "../fixtures.ts"

/** The store's `it`, of every product's repositories once the simulators' are wired. */
export type EmailSimulatorIt = Vitest.MethodsNonLive<SimulatedDnsRepo | SimulatedEmailRepo, true>

/** The store contract (contract.test.ts) runs this file by the product's name, `email-simulator`. */
export const contract = (it: EmailSimulatorIt) => emailSimulatorContract(it)

export const emailSimulatorContract = (it: EmailSimulatorIt) => {
  it.effect("simulated DNS: a set of records is put, replaced and removed, per type and name", () =>
    Effect.gen(function* () {
      const dns = yield* SimulatedDnsRepo
      const name = `d${uuid().slice(0, 8)}.example.sa`
      assert.deepStrictEqual(yield* dns.get("TXT", name), [])
      yield* dns.put("TXT", name, ["v=spf1 include:spf.mail.svc.sa ~all", "google-site-verification=x"])
      assert.deepStrictEqual(yield* dns.get("TXT", name), [
        "v=spf1 include:spf.mail.svc.sa ~all",
        "google-site-verification=x",
      ])
      assert.deepStrictEqual(yield* dns.get("CNAME", name), [])
      assert.deepStrictEqual(yield* dns.get("TXT", `bounces.${name}`), [])
      yield* dns.put("CNAME", `bounces.${name}`, ["bounces.mail.svc.sa"])
      yield* dns.put("TXT", name, ["v=spf1 -all"])
      assert.deepStrictEqual(yield* dns.get("TXT", name), ["v=spf1 -all"])
      assert.deepStrictEqual(yield* dns.get("CNAME", `bounces.${name}`), ["bounces.mail.svc.sa"])
      yield* dns.put("TXT", name, [])
      assert.deepStrictEqual(yield* dns.get("TXT", name), [])
      assert.deepStrictEqual(yield* dns.get("CNAME", `bounces.${name}`), ["bounces.mail.svc.sa"])
      yield* dns.put("TXT", name, [])
      assert.deepStrictEqual(yield* dns.get("TXT", name), [])
    }))

  it.effect("simulated email: the log is newest first, per recipient or all, limited", () =>
    Effect.gen(function* () {
      const sim = yield* SimulatedEmailRepo
      const to = `c${uuid().slice(0, 8)}@example.com`
      const email = (sentAt: number, subject: string, over: Partial<SimulatedEmail> = {}): SimulatedEmail => ({
        id: uuid(),
        from: "orders@shop.example.sa",
        to,
        subject,
        text: "Hello",
        html: null,
        sentAt,
        ...over,
      })
      const [e1, e2, e3] = [
        email(1_000, "one"),
        email(3_000, "two", { text: null, html: "<p>Hi</p>" }),
        email(3_000, "three"),
      ]
      const other = email(2_000, "other", { to: `o${uuid().slice(0, 8)}@example.com` })
      yield* Effect.forEach([e1, e2, other, e3], sim.append)
      assert.deepStrictEqual(yield* sim.list(to, 10), [e3, e2, e1])
      assert.deepStrictEqual(yield* sim.list(to, 2), [e3, e2])
      assert.deepStrictEqual(yield* sim.list(other.to, 10), [other])
      assert.deepStrictEqual(yield* sim.list(`x${uuid().slice(0, 8)}@example.com`, 10), [])
      const all = yield* sim.list(undefined, 10_000)
      assert.isTrue([e1, e2, e3, other].every((x) => all.some((y) => y.id === x.id)))
      const mine = all.filter((x) => x.to === to || x.to === other.to).map((x) => x.subject)
      assert.deepStrictEqual(mine, ["three", "two", "other", "one"])
    }))
}
