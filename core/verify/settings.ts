/** Verify settings per application: defaults and bounds from the limits table, validated as a whole. */
import { InvalidRequest } from "../errors.ts"
import { GuardDefaults, VerifyLimits } from "../limits.ts"
import type { GuardSettings, VerifySettings } from "./model.ts"
import { Either } from "effect"

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

const bounded: ReadonlyArray<readonly [keyof VerifySettings, { readonly min: number; readonly max: number }]> = [
  ["code_length", VerifyLimits.codeLength],
  ["code_lifetime_minutes", VerifyLimits.codeLifetimeMinutes],
  ["max_attempts", VerifyLimits.maxAttempts],
  ["hourly_cap_per_destination", VerifyLimits.hourlyCapPerDestination],
  ["max_per_ip_per_hour", VerifyLimits.maxPerIpPerHour],
]

const isInt = (u: unknown): u is number => typeof u === "number" && Number.isInteger(u)

const mergeGuard = (current: GuardSettings, input: unknown, fields: Record<string, string>): GuardSettings => {
  if (typeof input === "boolean") return { ...current, enabled: input }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    fields.guard = "must be an object with enabled, min_sends, min_verified_percent"
    return current
  }
  const g = input as Record<string, unknown>
  const next = { ...current }
  if ("enabled" in g) {
    if (typeof g.enabled === "boolean") next.enabled = g.enabled
    else fields["guard.enabled"] = "must be a boolean"
  }
  if ("min_sends" in g) {
    if (isInt(g.min_sends) && g.min_sends >= 1) next.min_sends = g.min_sends
    else fields["guard.min_sends"] = "must be an integer of at least 1"
  }
  if ("min_verified_percent" in g) {
    if (isInt(g.min_verified_percent) && g.min_verified_percent >= 0 && g.min_verified_percent <= 100) {
      next.min_verified_percent = g.min_verified_percent
    } else fields["guard.min_verified_percent"] = "must be an integer from 0 to 100"
  }
  return next
}

/** Applies a console update to the current settings; every out-of-bounds field is named. */
export const updateSettings = (
  current: VerifySettings,
  input: Record<string, unknown>,
): Either.Either<VerifySettings, InvalidRequest> => {
  const fields: Record<string, string> = {}
  const next: { -readonly [K in keyof VerifySettings]: VerifySettings[K] } = { ...current }
  for (const [name, { max, min }] of bounded) {
    if (!(name in input)) continue
    const v = input[name]
    if (isInt(v) && v >= min && v <= max) (next[name] as number) = v
    else fields[name] = `must be an integer from ${min} to ${max}`
  }
  if ("daily_spend_cap_halalas" in input) {
    const v = input.daily_spend_cap_halalas
    if (v === null || (isInt(v) && v >= 0)) next.daily_spend_cap_halalas = v
    else fields.daily_spend_cap_halalas = "must be null or a whole number of halalas of at least 0"
  }
  if ("guard" in input) next.guard = mergeGuard(current.guard, input.guard, fields)
  return Object.keys(fields).length > 0
    ? Either.left(new InvalidRequest({ message: "Some settings are out of bounds.", fields }))
    : Either.right(next)
}
