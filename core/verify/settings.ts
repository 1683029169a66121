/** Verify settings per application: defaults and bounds from the limits table, validated as a whole. */
import { Schema } from "effect"
import { GuardDefaults, VerifyLimits } from "../limits.ts"
import { consoleBody } from "../shared/fields.ts"
import type { VerifySettings } from "./model.ts"

export const defaultSettings: VerifySettings = {
  code_length: VerifyLimits.codeLength.default,
  code_lifetime_minutes: VerifyLimits.codeLifetimeMinutes.default,
  max_attempts: VerifyLimits.maxAttempts.default,
  hourly_cap_per_destination: VerifyLimits.hourlyCapPerDestination.default,
  max_per_ip_per_hour: VerifyLimits.maxPerIpPerHour.default,
  daily_spend_cap_halalas: null,
  guard: {
    enabled: GuardDefaults.enabled,
    min_sends: GuardDefaults.minSends,
    min_verified_percent: GuardDefaults.minVerifiedPercent,
  },
}

const between = (b: { readonly min: number; readonly max: number }) =>
  Schema.Int.pipe(Schema.between(b.min, b.max)).annotations({ description: `${b.min} to ${b.max}` })

/**
 * The six settings a change may give (the console's and the Partner API's), each within its bounds of the limits
 * table; `null` spend cap: none.
 */
export const settingsFields = {
  code_length: Schema.optional(between(VerifyLimits.codeLength)),
  code_lifetime_minutes: Schema.optional(between(VerifyLimits.codeLifetimeMinutes)),
  max_attempts: Schema.optional(between(VerifyLimits.maxAttempts)),
  hourly_cap_per_destination: Schema.optional(between(VerifyLimits.hourlyCapPerDestination)),
  max_per_ip_per_hour: Schema.optional(between(VerifyLimits.maxPerIpPerHour)),
  daily_spend_cap_halalas: Schema.optional(Schema.NullOr(Schema.Int.pipe(Schema.nonNegative()))),
}

/**
 * The console's change to an application's settings (DECISIONS 2): any of them; out-of-bounds values are
 * refused. `guard` is a boolean (`enabled`) or any of its three fields.
 */
export const SettingsChange = consoleBody({
  ...settingsFields,
  guard: Schema.optional(Schema.Union(
    Schema.Boolean,
    Schema.Struct({
      enabled: Schema.optional(Schema.Boolean),
      min_sends: Schema.optional(Schema.Int.pipe(Schema.greaterThanOrEqualTo(1))),
      min_verified_percent: Schema.optional(Schema.Int.pipe(Schema.between(0, 100))),
    }),
  )),
  // `null` is a value here: no daily spend cap.
}, { nullIsAbsent: false })
export type SettingsChange = typeof SettingsChange.Type

/** The settings with a console change applied: what it gives changes, the rest stays. */
export const updateSettings = (current: VerifySettings, change: SettingsChange): VerifySettings => {
  const { guard, ...rest } = change
  const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined))
  return {
    ...current,
    ...given,
    guard: guard === undefined
      ? current.guard
      : typeof guard === "boolean"
      ? { ...current.guard, enabled: guard }
      : { ...current.guard, ...Object.fromEntries(Object.entries(guard).filter(([, v]) => v !== undefined)) },
  }
}
