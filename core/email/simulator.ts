/**
 * The Email simulators' console use cases (DECISIONS 8.3): the DNS records the simulated resolver answers, the
 * provider's reports on a message (which reach Email as a real provider's would), and the simulated inbox.
 */
import { Effect } from "effect"
import { SimulatedDnsRepo, SimulatedEmailRepo } from "../../ports/store/email-simulator.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { dnsName } from "./records.ts"
import { Email } from "./service.ts"

export class EmailSimulator extends Effect.Service<EmailSimulator>()("core/EmailSimulator", {
  effect: Effect.gen(function* () {
    const dns = yield* SimulatedDnsRepo
    const inbox = yield* SimulatedEmailRepo
    const email = yield* Email

    /** Replaces the set of `type` records at `name` (`[]` removes it). */
    const putRecords = Effect.fn("EmailSimulator.putRecords", untracedStacks)(
      function* (type: "TXT" | "CNAME", name: string, values: ReadonlyArray<string>) {
        const at = dnsName(name)
        const set = type === "CNAME" ? values.map(dnsName) : [...values]
        yield* dns.put(type, at, set)
        return { type, name: at, values: set }
      },
    )

    const report = (id: string, status: "delivered" | "bounced" | "failed" | "complained") => email.report(id, status)

    const received = (to: string | undefined) =>
      Effect.map(inbox.list(to, 100), (rows) =>
        rows.map((m) => ({
          id: m.id,
          from: m.from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          sent_at: isoMillis(m.sentAt),
        })))

    return { putRecords, report, received } as const
  }),
}) {}
