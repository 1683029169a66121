/**
 * `GET /v1/partner/services` (DECISIONS 13): what a partner can provision for a merchant. Verify only (spec
 * Section 9), its channels, its price and the bounds and defaults of its six settings, read from the one place
 * each is written (core/limits.ts, core/verify/settings.ts).
 */
import { Prices, VerifyLimits } from "../limits.ts"
import { defaultSettings } from "../verify/settings.ts"

const bounds = (limit: { readonly min: number; readonly max: number }) => ({ min: limit.min, max: limit.max })

export const partnerServices = {
  data: [{
    id: "verify",
    channels: ["sms"],
    price_per_code_halalas: Prices.verifySmsHalalas,
    bounds: {
      code_length: bounds(VerifyLimits.codeLength),
      code_lifetime_minutes: bounds(VerifyLimits.codeLifetimeMinutes),
      max_attempts: bounds(VerifyLimits.maxAttempts),
      hourly_cap_per_destination: bounds(VerifyLimits.hourlyCapPerDestination),
      max_per_ip_per_hour: bounds(VerifyLimits.maxPerIpPerHour),
      // Any whole number of halalas, or null for no cap (core/verify/settings.ts).
      daily_spend_cap_halalas: { min: 0, max: null },
    },
    defaults: {
      code_length: defaultSettings.code_length,
      code_lifetime_minutes: defaultSettings.code_lifetime_minutes,
      max_attempts: defaultSettings.max_attempts,
      hourly_cap_per_destination: defaultSettings.hourly_cap_per_destination,
      max_per_ip_per_hour: defaultSettings.max_per_ip_per_hour,
      daily_spend_cap_halalas: defaultSettings.daily_spend_cap_halalas,
    },
  }],
} as const
