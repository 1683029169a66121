/**
 * A partner's client application as the Partner API shows it (DECISIONS 13): `{ id, service_id (= id),
 * external_id, name, website, logo_url, status, paused, reason_code, appealable, verify_settings (spec §3's
 * six), approved_at, created_at, updated_at }`, bare.
 */
import { Schema } from "effect"
import type { Application } from "../accounts/model.ts"
import type { ApplicationProfile } from "../../ports/store/accounts.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { defaultSettings } from "../verify/settings.ts"
import type { VerifySettings } from "../verify/model.ts"
import { lifecycleStatuses, reasonCodes } from "./lifecycle.ts"
import { logoUrl } from "./logos.ts"

export const PartnerVerifySettings = Schema.Struct({
  code_length: Schema.Int,
  code_lifetime_minutes: Schema.Int,
  max_attempts: Schema.Int,
  hourly_cap_per_destination: Schema.Int,
  max_per_ip_per_hour: Schema.Int,
  daily_spend_cap_halalas: Schema.NullOr(Schema.Int),
}).annotations({ identifier: "PartnerVerifySettings" })

export const PartnerApplication = Schema.Struct({
  id: Schema.UUID,
  service_id: Schema.UUID,
  external_id: Schema.NullOr(Schema.String),
  name: Schema.String,
  website: Schema.NullOr(Schema.String),
  logo_url: Schema.NullOr(Schema.String),
  status: Schema.Literal(...lifecycleStatuses),
  paused: Schema.Boolean,
  reason_code: Schema.NullOr(Schema.Literal(...reasonCodes)),
  appealable: Schema.Boolean,
  verify_settings: PartnerVerifySettings,
  approved_at: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String,
}).annotations({ identifier: "PartnerApplication" })

export type PartnerApplication = typeof PartnerApplication.Type

/** The six settings a partner reads and writes (the guard stays the console's). */
export const partnerSettings = (s: VerifySettings | null) => {
  const v = s ?? defaultSettings
  return {
    code_length: v.code_length,
    code_lifetime_minutes: v.code_lifetime_minutes,
    max_attempts: v.max_attempts,
    hourly_cap_per_destination: v.hourly_cap_per_destination,
    max_per_ip_per_hour: v.max_per_ip_per_hour,
    daily_spend_cap_halalas: v.daily_spend_cap_halalas,
  }
}

export const partnerRecord = (
  app: Application,
  profile: ApplicationProfile,
  settings: VerifySettings | null,
  baseUrl: string,
): PartnerApplication => ({
  id: app.id,
  service_id: app.id,
  external_id: app.externalId,
  name: app.name,
  website: profile.website,
  logo_url: logoUrl(baseUrl, profile.logo),
  // `disabled` (before the lifecycle) reads as `suspended`, as the lifecycle reads it.
  status: app.status === "disabled" ? "suspended" : app.status,
  paused: app.paused,
  reason_code: profile.reasonCode,
  appealable: profile.appealable,
  verify_settings: partnerSettings(settings),
  approved_at: app.approvedAt === null ? null : isoMillis(app.approvedAt),
  created_at: isoMillis(app.createdAt),
  updated_at: isoMillis(profile.updatedAt),
})
