/** Client usage over the memory tables of Verify (sends, verifications) and accounts (applications): as adapters/sql/usage.ts. */
import { Effect, Layer } from "effect"
import type { UsageRow } from "../../ports/store/usage.ts"
import { usageNeedle, UsageRepo } from "../../ports/store/usage.ts"
import { accountTables } from "./accounts.ts"
import { memoryTables } from "./db.ts"
import { verifyTables } from "./verify.ts"

/** Busiest first: most codes sent, then most cost, then application id (as the SQL `ORDER BY`). */
const byBusiest = (a: UsageRow, b: UsageRow) =>
  b.codesSent - a.codesSent || b.costHalalas - a.costHalalas ||
  (a.applicationId < b.applicationId ? -1 : a.applicationId > b.applicationId ? 1 : 0)

export const UsageRepoMemory = Layer.effect(
  UsageRepo,
  Effect.map(memoryTables(accountTables, verifyTables), (db) => ({
    page: (query) =>
      db.read((t) => {
        const inPeriod = (at: number | null) => at !== null && at >= query.since && at < query.until
        const verified = new Map<string, number>()
        for (const v of t.verifications.values()) {
          if (
            v.status === "verified" && (v.mode === "live" || v.mode === "partner") && inPeriod(v.verifiedAt)
          ) verified.set(v.applicationId, (verified.get(v.applicationId) ?? 0) + 1)
        }
        const rows: Array<UsageRow> = []
        for (const app of t.applications.values()) {
          if (app.accountId !== query.accountId) continue
          if (
            query.q !== null && !usageNeedle(app.name).includes(query.q) &&
            !usageNeedle(app.externalId ?? "").includes(query.q) && app.id !== query.q
          ) continue
          let codesSent = 0
          let costHalalas = 0
          for (const s of t.sendsByApplication.get(app.id) ?? []) {
            if (s.priceHalalas > 0 && inPeriod(s.sentAt)) {
              codesSent++
              costHalalas += s.priceHalalas
            }
          }
          const codesVerified = verified.get(app.id) ?? 0
          if (codesSent === 0 && codesVerified === 0) continue
          rows.push({
            applicationId: app.id,
            externalId: app.externalId,
            name: app.name,
            codesSent,
            codesVerified,
            costHalalas,
          })
        }
        rows.sort(byBusiest)
        const totals = {
          applications: rows.length,
          codesSent: rows.reduce((n, r) => n + r.codesSent, 0),
          codesVerified: rows.reduce((n, r) => n + r.codesVerified, 0),
          costHalalas: rows.reduce((n, r) => n + r.costHalalas, 0),
        }
        // After the anchor's row where it stands now; an anchor no longer in the list ends it.
        const start = query.after === null ? 0 : rows.findIndex((r) => r.applicationId === query.after) + 1
        return { rows: start === 0 && query.after !== null ? [] : rows.slice(start, start + query.limit), totals }
      }),
  })),
)
