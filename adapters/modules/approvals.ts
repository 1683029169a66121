/**
 * Approvals of account-API operations (DECISIONS 11, 14) and the account API's own frame: the operation
 * catalogue and call by name, the applications list, the audit record.
 */
import { Layer } from "effect"
import { AccountApplications, applicationsListOperation } from "../../core/accounts/applications.ts"
import { callByNameOperation, OperationsCatalogue, operationsListOperation } from "../../core/accounts/catalogue.ts"
import { approvalOperations } from "../../core/approvals/operations.ts"
import { Approvals } from "../../core/approvals/service.ts"
import { AccountAudit, auditOperations } from "../../core/audit/operations.ts"
import { ApprovalsRepoMemory } from "../memory/approvals.ts"
import { AuditRepoMemory } from "../memory/audit.ts"
import { approvalPages } from "../console/pages/approvals.tsx"
import { product } from "../product.ts"
import { ApprovalsRepoSql } from "../sql/approvals.ts"
import { AuditRepoSql } from "../sql/audit.ts"
import { migration as approvals } from "../sql/migrations/approvals/0001_approvals.ts"
import { migration as audit } from "../sql/migrations/approvals/0002_audit.ts"

export const approvalsProduct = product({
  name: "approvals",
  memory: Layer.mergeAll(ApprovalsRepoMemory, AuditRepoMemory),
  sql: Layer.mergeAll(ApprovalsRepoSql, AuditRepoSql),
  migrations: [approvals, audit],
  services: () =>
    Layer.provideMerge(
      Layer.mergeAll(OperationsCatalogue.Default, AccountApplications.Default, AccountAudit.Default),
      Approvals.Default,
    ),
  pages: approvalPages,
  operations: [
    operationsListOperation,
    callByNameOperation,
    applicationsListOperation,
    ...approvalOperations,
    ...auditOperations,
  ],
})
