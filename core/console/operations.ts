/**
 * The console's account and key operations (DECISIONS 2), each declared once; their bodies are decoded by the
 * Schemas here, as the console reads a body: other fields ignored, `null` as not given (core/shared/fields.ts).
 */
import { Schema } from "effect"
import { InvalidState, NotFound } from "../errors.ts"
import { reasonCodes } from "../partner/lifecycle.ts"
import { Fields as FieldLimits } from "../limits.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { isEmailAddress } from "../shared/email-address.ts"
import { check, consoleBody, ConsoleName, IpAllowlist, IsoDateTime, oneField, Text } from "../shared/fields.ts"
import { roles } from "../keys/model.ts"
import { Access, ScopeName } from "../shared/scope.ts"
import { Console } from "./service.ts"

/** The console's caller and answers, for every product's console operations. */
export const consoleCaller = { _tag: "Console" } as const
export const consoleCreated = { status: 201, envelope: "data" } as const
export const consoleDone = { status: 200, envelope: "data" } as const
const console = consoleCaller
const created = consoleCreated
const done = consoleDone

const pathParameter = (name: string, description: string): Parameter => ({
  name,
  in: "path",
  description,
  schema: Schema.UUID,
  required: true,
})
export const accountParameter = pathParameter("account", "The account id")
export const applicationParameter = pathParameter("application", "The application id")

const Name = ConsoleName(FieldLimits.maxNameLength)

export const AccountOutput = Schema.Struct({
  id: Schema.UUID,
  name: Schema.String,
  sandbox_only: Schema.Boolean,
  partner: Schema.Boolean,
}).annotations({ identifier: "ConsoleAccount" })

export const ApplicationOutput = Schema.Struct({
  id: Schema.UUID,
  account_id: Schema.UUID,
  name: Schema.String,
  status: Schema.Literal("pending", "active", "rejected", "suspended", "disabled", "archived"),
  external_id: Schema.NullOr(Schema.String),
  paused: Schema.Boolean,
}).annotations({ identifier: "Application" })

const KeyLimits = {
  expires_at: Schema.optional(IsoDateTime.annotations({ description: "ISO 8601 date-time, in the future" })),
  ip_allowlist: Schema.optional(IpAllowlist),
}

/**
 * An application key's access. Whether each scope exists, and that it is none of the connected-app scopes
 * (held only by connected-app keys), is the scope table's (the products list's), judged by the use case.
 */
const KeyAccess = oneField(Access)

export const NewKeyOutput = Schema.Struct({
  id: Schema.UUID,
  key: Schema.String.annotations({ description: "Shown only here, once" }),
  mode: Schema.NullOr(Schema.Literal("live", "test", "partner", "partner_test")),
  access: Access,
  expires_at: Schema.NullOr(Schema.String),
  ip_allowlist: Schema.Array(Schema.String),
  app_name: Schema.optional(Schema.String),
}).annotations({ identifier: "NewKey" })

export const consoleOperations = [
  operation({
    name: "console.accounts.create",
    summary: "Creates an account.",
    method: "POST",
    path: "/console/v1/accounts",
    caller: console,
    answer: created,
    parameters: [],
    body: consoleBody({
      name: Name,
      sandbox_only: Schema.optional(Schema.Boolean),
      partner: Schema.optional(Schema.Boolean),
    }),
    output: AccountOutput,
    errors: [],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.createAccount(input.body),
  }),
  operation({
    name: "console.applications.create",
    summary: "Creates an application of an account (`pending`, or `active` when `approved`).",
    method: "POST",
    path: "/console/v1/accounts/{account}/applications",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: consoleBody({
      name: Name,
      approved: Schema.optional(Schema.Boolean),
      external_id: Schema.optional(Text(FieldLimits.maxNameLength)),
    }),
    output: ApplicationOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.createApplication(input.params.account, input.body),
  }),
  operation({
    name: "console.applications.approve",
    summary: "Approves an application: live keys work from now on.",
    method: "POST",
    path: "/console/v1/applications/{application}/approve",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: undefined,
    output: ApplicationOutput,
    errors: [NotFound, InvalidState],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.approve(input.params.application),
  }),
  operation({
    name: "console.applications.reject",
    summary: "Rejects a pending application with a reason (DECISIONS 13, 14): `service.rejected` fires.",
    method: "POST",
    path: "/console/v1/applications/{application}/reject",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: consoleBody({
      reason_code: Schema.Literal(...reasonCodes),
      note: Schema.optional(Text(1000)),
    }),
    output: ApplicationOutput,
    errors: [NotFound, InvalidState],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.reject(input.params.application, input.body),
  }),
  operation({
    name: "console.applications.pause",
    summary: "Pauses an application as the protection guard does: `service.paused` fires; unpause lifts it.",
    method: "POST",
    path: "/console/v1/applications/{application}/pause",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: undefined,
    output: ApplicationOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.pause(input.params.application),
  }),
  operation({
    name: "console.keys.create",
    summary: "Issues a live or test key of an application; the key is shown only in this answer.",
    method: "POST",
    path: "/console/v1/applications/{application}/keys",
    caller: console,
    answer: created,
    parameters: [applicationParameter],
    body: consoleBody({ mode: Schema.Literal("live", "test"), access: Schema.optional(KeyAccess), ...KeyLimits }),
    output: NewKeyOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.createKey(input.params.application, input.body),
  }),
  operation({
    name: "console.partner_keys.create",
    summary: "Issues a partner or partner-test key of an account (always full access).",
    method: "POST",
    path: "/console/v1/accounts/{account}/keys",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: consoleBody({
      mode: Schema.Literal("partner", "partner_test"),
      access: Schema.optional(
        Schema.Literal("full").annotations({ description: "Partner keys always have full access" }),
      ),
      ...KeyLimits,
    }),
    output: NewKeyOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.createPartnerKey(input.params.account, input.body),
  }),
  operation({
    name: "console.connected_app_keys.create",
    summary: "Issues a connected app's live key, which may hold the connected-app scopes.",
    method: "POST",
    path: "/console/v1/applications/{application}/connected-app-keys",
    caller: console,
    answer: created,
    parameters: [applicationParameter],
    body: consoleBody({ app_name: Name, scopes: oneField(Schema.NonEmptyArray(ScopeName)), ...KeyLimits }),
    output: NewKeyOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.createConnectedAppKey(input.params.application, input.body),
  }),
  operation({
    name: "console.account_tokens.create",
    summary: "Issues an account token (`svc_acct_`), shown only in this answer.",
    method: "POST",
    path: "/console/v1/accounts/{account}/account-tokens",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: consoleBody({
      role: Schema.optional(Schema.Literal(...roles)),
      email: Schema.optional(
        Text(FieldLimits.maxEmailLength).pipe(check(isEmailAddress, "must be an e-mail address")),
      ),
      manage_contacts: Schema.optional(Schema.Boolean),
    }),
    output: Schema.Struct({
      id: Schema.UUID,
      token: Schema.String,
      member_id: Schema.UUID,
      role: Schema.Literal("owner", "admin", "agent"),
      email: Schema.NullOr(Schema.String),
      manage_contacts: Schema.Boolean,
    }),
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.createAccountToken(input.params.account, input.body),
  }),
  operation({
    name: "console.keys.revoke",
    summary: "Revokes a key or token: it answers 401 from now on.",
    method: "DELETE",
    path: "/console/v1/keys/{key}",
    caller: console,
    answer: done,
    parameters: [pathParameter("key", "The key id")],
    body: undefined,
    output: Schema.Struct({ id: Schema.UUID, revoked: Schema.Literal(true) }),
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, input) => c.revokeKey(input.params.key),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
