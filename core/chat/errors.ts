/** The error codes of the catalogue: Chat (conversation menus, auto-attendant, team). */
import { Schema } from "effect"
import { Next } from "../accounts/errors.ts"
import { ApiErrorClass, Message } from "../shared/api-error.ts"
import { ProblemSchema } from "./attendant.ts"

export class MenuLimit
  extends ApiErrorClass<MenuLimit>()("menu_limit", { ...Message, max: Schema.Number }, { status: 409 }) {}
export class AttendantNoDraft
  extends ApiErrorClass<AttendantNoDraft>()("attendant_no_draft", Message, { status: 409 }) {}
export class AttendantNotReady
  extends ApiErrorClass<AttendantNotReady>()("attendant_not_ready", { problems: Schema.Array(ProblemSchema) }, {
    status: 422,
  }) {}
export class NoEmail extends ApiErrorClass<NoEmail>()("no_email", Message, { status: 409 }) {}
/**
 * Within 5 minutes of the member's last invitation (DECISIONS 9.4): `retry_after_seconds` in the body and as
 * `Retry-After` (`retry_after`, the header's copy), and `next`, the same call (DECISIONS 10's error body).
 */
export class InviteWait extends ApiErrorClass<InviteWait>()("invite_wait", {
  ...Message,
  retry_after_seconds: Schema.Number,
  retry_after: Schema.Number,
  next: Next,
}, { status: 429, headers: { retry_after: (v) => ["retry-after", String(v)] } }) {}
/** The member accepted the invitation (status `active`): nothing to invite to (DECISIONS 10). */
export class AlreadyJoined extends ApiErrorClass<AlreadyJoined>()("already_joined", Message, { status: 409 }) {}
export class SelfEdit extends ApiErrorClass<SelfEdit>()("self_edit", Message, { status: 403 }) {}
/** The store's platform did not answer the read at its connection (DECISIONS 9.5): nothing was connected. */
export class StorePlatformUnreachable
  extends ApiErrorClass<StorePlatformUnreachable>()("store_platform_unreachable", Message, { status: 502 }) {}
export class AboveOwnRole extends ApiErrorClass<AboveOwnRole>()("above_own_role", Message, { status: 403 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const chatErrors = [
  MenuLimit,
  AttendantNoDraft,
  AttendantNotReady,
  NoEmail,
  InviteWait,
  SelfEdit,
  AboveOwnRole,
  AlreadyJoined,
  StorePlatformUnreachable,
] as const
