/**
 * Client usage (`GET /v1/clients/usage`, DECISIONS 12 and 16): no tables of its own. It reads Verify's sends
 * and verifications and the accounts' applications (so it comes after `verifyProduct` in the list), and keeps
 * one index on Verify's table for the verified counts.
 */
import { usageOperations } from "../../core/usage/operations.ts"
import { Usage } from "../../core/usage/service.ts"
import { UsageRepoMemory } from "../memory/usage.ts"
import { product } from "../product.ts"
import { migration as verifiedIndex } from "../sql/migrations/usage/0001_verified_index.ts"
import { UsageRepoSql } from "../sql/usage.ts"

export const usageProduct = product({
  name: "usage",
  memory: UsageRepoMemory,
  sql: UsageRepoSql,
  migrations: [verifiedIndex],
  services: () => Usage.Default,
  operations: usageOperations,
})
