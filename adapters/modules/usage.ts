/**
 * Client usage (`GET /v1/clients/usage`, DECISIONS 12 and 16): no tables of its own. It reads Verify's sends
 * and verifications and the accounts' applications (so it comes after `verifyProduct` in the list), and keeps
 * two indexes on Verify's table: the verified counts', and the one Verify's retention finds old verifications by
 * (usage's months set how long they are kept).
 */
import { usageOperations } from "../../core/usage/operations.ts"
import { Usage } from "../../core/usage/service.ts"
import { UsageRepoMemory } from "../memory/usage.ts"
import { product } from "../product.ts"
import { migration as verifiedIndex } from "../sql/migrations/usage/0001_verified_index.ts"
import { migration as retentionIndex } from "../sql/migrations/usage/0002_retention_index.ts"
import { UsageRepoSql } from "../sql/usage.ts"

export const usageProduct = product({
  name: "usage",
  memory: UsageRepoMemory,
  sql: UsageRepoSql,
  migrations: [verifiedIndex, retentionIndex],
  services: () => Usage.Default,
  operations: usageOperations,
})
