/**
 * The console's account and key operations (DECISIONS 2), each declared once. The console checks its own
 * fields (with console messages); the body Schemas here document them.
 */
import { Either, Schema } from "effect"
import { InvalidState, NotFound } from "../errors.ts"
import { reasonCodes } from "../partner/lifecycle.ts"
import { Fields as FieldLimits } from "../limits.ts"
import { type AnyOperation, operation, type Parameter, type RawInput } from "../pipeline/operation.ts"
import { withoutControlCharacters } from "../shared/names.ts"
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

const Name = withoutControlCharacters(
  Schema.String.pipe(Schema.minLength(1), Schema.maxLength(FieldLimits.maxNameLength)),
)

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
  expires_at: Schema.optional(Schema.NullOr(Schema.String)).annotations({
    description: "ISO 8601 date-time, in the future",
  }),
  ip_allowlist: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "Exact IPv4 or IPv6 addresses and CIDR ranges; empty: every address",
  }),
}

export const NewKeyOutput = Schema.Struct({
  id: Schema.UUID,
  key: Schema.String.annotations({ description: "Shown only here, once" }),
  mode: Schema.NullOr(Schema.Literal("live", "test", "partner", "partner_test")),
  access: Access,
  expires_at: Schema.NullOr(Schema.String),
  ip_allowlist: Schema.Array(Schema.String),
  app_name: Schema.optional(Schema.String),
}).annotations({ identifier: "NewKey" })

/** The console reads its own fields from the raw request. */
export const raw = (r: RawInput) => Either.right(r)
/** The body as a JSON object (an empty body reads as `{}`). */
export const body = (r: RawInput) => r.body ?? {}

export const consoleOperations = [
  operation({
    name: "console.accounts.create",
    summary: "Creates an account.",
    method: "POST",
    path: "/console/v1/accounts",
    caller: console,
    answer: created,
    parameters: [],
    body: Schema.Struct({
      name: Name,
      sandbox_only: Schema.optional(Schema.Boolean),
      partner: Schema.optional(Schema.Boolean),
    }),
    decode: raw,
    output: AccountOutput,
    errors: [],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.createAccount(body(r)),
  }),
  operation({
    name: "console.applications.create",
    summary: "Creates an application of an account (`pending`, or `active` when `approved`).",
    method: "POST",
    path: "/console/v1/accounts/{account}/applications",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: Schema.Struct({
      name: Name,
      approved: Schema.optional(Schema.Boolean),
      external_id: Schema.optional(Name),
    }),
    decode: raw,
    output: ApplicationOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.createApplication(r.params.account, body(r)),
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
    decode: raw,
    output: ApplicationOutput,
    errors: [NotFound, InvalidState],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.approve(r.params.application),
  }),
  operation({
    name: "console.applications.reject",
    summary: "Rejects a pending application with a reason (DECISIONS 13, 14): `service.rejected` fires.",
    method: "POST",
    path: "/console/v1/applications/{application}/reject",
    caller: console,
    answer: done,
    parameters: [applicationParameter],
    body: Schema.Struct({
      reason_code: Schema.Literal(...reasonCodes),
      note: Schema.optional(Schema.NullOr(Schema.String)),
    }),
    decode: raw,
    output: ApplicationOutput,
    errors: [NotFound, InvalidState],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.reject(r.params.application, body(r)),
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
    decode: raw,
    output: ApplicationOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.pause(r.params.application),
  }),
  operation({
    name: "console.keys.create",
    summary: "Issues a live or test key of an application; the key is shown only in this answer.",
    method: "POST",
    path: "/console/v1/applications/{application}/keys",
    caller: console,
    answer: created,
    parameters: [applicationParameter],
    body: Schema.Struct({ mode: Schema.Literal("live", "test"), access: Schema.optional(Access), ...KeyLimits }),
    decode: raw,
    output: NewKeyOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.createKey(r.params.application, body(r)),
  }),
  operation({
    name: "console.partner_keys.create",
    summary: "Issues a partner or partner-test key of an account (always full access).",
    method: "POST",
    path: "/console/v1/accounts/{account}/keys",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: Schema.Struct({ mode: Schema.Literal("partner", "partner_test"), ...KeyLimits }),
    decode: raw,
    output: NewKeyOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.createPartnerKey(r.params.account, body(r)),
  }),
  operation({
    name: "console.connected_app_keys.create",
    summary: "Issues a connected app's live key, which may hold the connected-app scopes.",
    method: "POST",
    path: "/console/v1/applications/{application}/connected-app-keys",
    caller: console,
    answer: created,
    parameters: [applicationParameter],
    body: Schema.Struct({ app_name: Name, scopes: Schema.NonEmptyArray(ScopeName) }),
    decode: raw,
    output: NewKeyOutput,
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.createConnectedAppKey(r.params.application, body(r)),
  }),
  operation({
    name: "console.account_tokens.create",
    summary: "Issues an account token (`svc_acct_`), shown only in this answer.",
    method: "POST",
    path: "/console/v1/accounts/{account}/account-tokens",
    caller: console,
    answer: created,
    parameters: [accountParameter],
    body: Schema.Struct({
      role: Schema.optional(Schema.Literal("owner", "admin", "agent")),
      email: Schema.optional(Schema.String),
      manage_contacts: Schema.optional(Schema.Boolean),
    }),
    decode: raw,
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
    run: (c, _, r) => c.createAccountToken(r.params.account, body(r)),
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
    decode: raw,
    output: Schema.Struct({ id: Schema.UUID, revoked: Schema.Literal(true) }),
    errors: [NotFound],
    idempotent: false,
    service: Console,
    run: (c, _, r) => c.revokeKey(r.params.key),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
