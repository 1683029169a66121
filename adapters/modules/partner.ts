/**
 * The Partner API (DECISIONS 13): client applications provisioned by partners, their lifecycle, logos and
 * bulk moves. Reads and moves the accounts' applications and Verify's settings (so it comes after them).
 */
import { Layer } from "effect"
import { applicationOperations } from "../../core/partner/operations.ts"
import { PartnerApplications } from "../../core/partner/applications.ts"
import { LogosRepoMemory, PartnerApplicationsRepoMemory } from "../memory/partner.ts"
import { product } from "../product.ts"
import { DigestLive } from "../secrets/node-digest.ts"
import { migration as logos } from "../sql/migrations/partner/0001_logos.ts"
import { LogosRepoSql, PartnerApplicationsRepoSql } from "../sql/partner.ts"
import { partnerApplicationErrors } from "../../core/partner/application-errors.ts"

export const partnerProduct = product({
  name: "partner",
  errors: partnerApplicationErrors,
  memory: Layer.mergeAll(PartnerApplicationsRepoMemory, LogosRepoMemory),
  sql: Layer.mergeAll(PartnerApplicationsRepoSql, LogosRepoSql),
  migrations: [logos],
  services: () => Layer.provideMerge(PartnerApplications.Default, DigestLive),
  operations: [...applicationOperations],
})
