/** The error codes of the catalogue: Chat (conversation menus, auto-attendant, team). */
import { Schema } from "effect"
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
export class InviteWait extends ApiErrorClass<InviteWait>()("invite_wait", Message, { status: 429 }) {}
export class SelfEdit extends ApiErrorClass<SelfEdit>()("self_edit", Message, { status: 403 }) {}
/** The store's platform did not answer the read at its connection (DECISIONS 9.5): nothing was connected. */
export class StorePlatformUnreachable
  extends ApiErrorClass<StorePlatformUnreachable>()("store_unreachable", Message, { status: 502 }) {}
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
  StorePlatformUnreachable,
] as const
