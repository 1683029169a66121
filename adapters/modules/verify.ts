/** Verify: its repositories, migrations, the Verify service, its operations and the sweep of expired codes. */
import { verifyEvents } from "../../core/verify/events.ts"
import { Effect, Layer, Option } from "effect"
import { VerifyLimits } from "../../core/limits.ts"
import type { Job } from "../../core/shared/job.ts"
import { VerifyConsole } from "../../core/verify/console.ts"
import { verifyConsoleOperations } from "../../core/verify/console-operations.ts"
import { verifyOperations } from "../../core/verify/operations.ts"
import { SweepJob, Verify } from "../../core/verify/service.ts"
import { JobsRepo } from "../../ports/store/jobs.ts"
import { VerificationsRepo } from "../../ports/store/verify.ts"
import { dueAfterLease } from "../jobs.ts"
import {
  SandboxDestinationsRepoMemory,
  VerificationsRepoMemory,
  VerifySendsRepoMemory,
  VerifySettingsRepoMemory,
} from "../memory/verify.ts"
import { product } from "../product.ts"
import { migration as verify } from "../sql/migrations/verify/0001_verify.ts"
import { migration as sendCounters } from "../sql/migrations/verify/0002_send_counters.ts"
import { migration as guardCreditShards } from "../sql/migrations/verify/0003_guard_credit_shards.ts"
import { migration as leanerIndexes } from "../sql/migrations/verify/0004_leaner_indexes.ts"
import { migration as sendUndone } from "../sql/migrations/verify/0005_send_undone.ts"
import {
  SandboxDestinationsRepoSql,
  VerificationsRepoSql,
  VerifySendsRepoSql,
  VerifySettingsRepoSql,
} from "../sql/verify.ts"
import { VerifyRetentionRepoMemory } from "../memory/verify-retention.ts"
import { VerifyRetentionRepoSql } from "../sql/verify-retention.ts"
import { verifyRetention } from "../retention.ts"
import { verifyErrors } from "../../core/verify/errors.ts"
import { verifyScopes } from "../../core/verify/scopes.ts"
import { verifyPages } from "../console/pages/verify.tsx"

/** A pending code is swept once it is `sweepGraceMs` past its expiry. */
const sweep: Effect.Effect<ReadonlyArray<Job>, never, Verify | JobsRepo | VerificationsRepo> = Effect.gen(
  function* () {
    const service = yield* Verify
    const leases = yield* JobsRepo
    const verifications = yield* VerificationsRepo
    const job: Job = {
      name: SweepJob,
      nextDue: Effect.flatMap(
        verifications.earliestPendingExpiry,
        (expiry) =>
          dueAfterLease(SweepJob, Option.map(expiry, (at) => at + VerifyLimits.sweepGraceMs)).pipe(
            Effect.provideService(JobsRepo, leases),
          ),
      ),
      run: Effect.asVoid(service.sweep(leases.claim)),
    }
    return [job]
  },
)

export const verifyProduct = product({
  name: "verify",
  events: verifyEvents,
  errors: verifyErrors,
  scopes: verifyScopes,
  memory: Layer.mergeAll(
    VerificationsRepoMemory,
    VerifySendsRepoMemory,
    VerifySettingsRepoMemory,
    SandboxDestinationsRepoMemory,
    VerifyRetentionRepoMemory,
  ),
  sql: Layer.mergeAll(
    VerificationsRepoSql,
    VerifySendsRepoSql,
    VerifySettingsRepoSql,
    SandboxDestinationsRepoSql,
    VerifyRetentionRepoSql,
  ),
  migrations: [verify, sendCounters, guardCreditShards, leanerIndexes, sendUndone],
  services: () => Layer.provideMerge(VerifyConsole.Default, Verify.Default),
  operations: [...verifyOperations, ...verifyConsoleOperations],
  pages: verifyPages,
  jobs: Effect.map(Effect.all([sweep, verifyRetention]), (lists) => lists.flat()),
})
