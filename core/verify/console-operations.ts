/** Verify's console operations (DECISIONS 2), declared once. */
import { Schema } from "effect"
import {
  accountParameter,
  applicationParameter,
  body,
  consoleCaller as console,
  consoleCreated as created,
  consoleDone as done,
  raw,
} from "../console/operations.ts"
import { NotFound } from "../errors.ts"
import { type AnyOperation, operation } from "../pipeline/operation.ts"
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
    body: Schema.partial(VerifySettingsOutput),
    decode: raw,
    output: VerifySettingsOutput,
    errors: [NotFound],
    idempotent: false,
    service: VerifyConsole,
    run: (c, _, r) => c.putVerifySettings(r.params.application, body(r)),
  }),
  operation({
    name: "console.sandbox_destinations.add",
    summary: "Adds a destination to the account's proven list (what test keys may send to).",
    method: "POST",
    path: "/console/v1/accounts/{account}/sandbox-destinations",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: Schema.Struct({ to: Schema.String }),
    decode: raw,
    output: Schema.Struct({ to: Schema.String }),
    errors: [NotFound],
    idempotent: false,
    service: VerifyConsole,
    run: (c, _, r) => c.addSandboxDestination(r.params.account, body(r)),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
