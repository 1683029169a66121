/** Verify's console operations (DECISIONS 2), declared once. */
import { Schema } from "effect"
import {
  accountParameter,
  applicationParameter,
  consoleCaller as console,
  consoleCreated as created,
  consoleDone as done,
} from "../console/operations.ts"
import { NotFound } from "../errors.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
import { consoleBody } from "../shared/fields.ts"
import { SaudiMobileFromString } from "../shared/phone.ts"
import { SettingsChange } from "./settings.ts"
import { VerifyConsole } from "./console.ts"

const GuardSettings = Schema.Struct({
  enabled: Schema.Boolean,
  min_sends: Schema.Int,
  min_verified_percent: Schema.Number,
})

export const VerifySettingsOutput = Schema.Struct({
  code_length: Schema.Int,
  code_lifetime_minutes: Schema.Int,
  max_attempts: Schema.Int,
  hourly_cap_per_destination: Schema.Int,
  max_per_ip_per_hour: Schema.Int,
  daily_spend_cap_halalas: Schema.NullOr(Schema.Int),
  guard: GuardSettings,
}).annotations({ identifier: "VerifySettings" })

export const verifyConsoleOperations = [
  operation({
    name: "console.verify_settings.put",
    summary: "Sets an application's Verify settings; answers the whole settings.",
    method: "PUT",
    path: "/console/v1/applications/{application}/verify-settings",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: SettingsChange,
    output: VerifySettingsOutput,
    errors: [NotFound],
    idempotent: false,
    service: VerifyConsole,
    run: (c, _, input) => c.putVerifySettings(input.params.application, input.body),
  }),
  operation({
    name: "console.sandbox_destinations.add",
    summary: "Adds a destination to the account's proven list (what test keys may send to).",
    method: "POST",
    path: "/console/v1/accounts/{account}/sandbox-destinations",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: consoleBody({
      to: SaudiMobileFromString.annotations({ description: "A Saudi mobile number, in any accepted form" }),
    }),
    output: Schema.Struct({ to: Schema.String }),
    errors: [NotFound],
    idempotent: false,
    service: VerifyConsole,
    run: (c, _, input) => c.addSandboxDestination(input.params.account, input.body),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
