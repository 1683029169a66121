/** The account's audit record in memory. */
import { Effect, Layer } from "effect"
import type { AuditEntry } from "../../core/audit/model.ts"
import { AuditRepo } from "../../ports/store/audit.ts"
import { memoryTables, pushTo } from "./db.ts"

export const auditTables = () => ({ auditEntries: new Array<AuditEntry>() })

/** Newest first, then the greater id first (as the SQL order by `at DESC, id DESC`). */
const newestFirst = (x: AuditEntry, y: AuditEntry) => y.at - x.at || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0)

export const AuditRepoMemory = Layer.effect(
  AuditRepo,
  Effect.map(memoryTables(auditTables), (db) => ({
    append: (e) => db.write((t, record) => pushTo(t.auditEntries, e, record)),
    page: (accountId, after, limit) =>
      db.read((t) =>
        t.auditEntries
          .filter((e) =>
            e.accountId === accountId && (after === null || e.at < after.at || (e.at === after.at && e.id < after.id))
          )
          .sort(newestFirst)
          .slice(0, limit)
      ),
  })),
)
