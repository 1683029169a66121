/** The error codes of the catalogue: Notifications (chat-app messages and templates). */
import { Schema } from "effect"
import { HumanAction, Next } from "../accounts/errors.ts"
import { ApiErrorClass, Fields, Message } from "../shared/api-error.ts"

export class WhatsappNotEnabled
  extends ApiErrorClass<WhatsappNotEnabled>()("whatsapp_not_enabled", {}, { status: 403 }) {}
/** On the account API (DECISIONS 10) it adds `message`, `needs` `["whatsapp_number"]` and `human_action`. */
export class NoWhatsappNumber extends ApiErrorClass<NoWhatsappNumber>()("no_whatsapp_number", {
  ...Message,
  needs: Schema.optional(Schema.Array(Schema.String)),
  human_action: Schema.optional(HumanAction),
}, { status: 409 }) {}
export class NumberDisconnected
  extends ApiErrorClass<NumberDisconnected>()("number_disconnected", {}, { status: 409 }) {}
export class UnknownTemplate extends ApiErrorClass<UnknownTemplate>()("unknown_template", {}, { status: 422 }) {}
export class TemplateNotApproved
  extends ApiErrorClass<TemplateNotApproved>()("template_not_approved", { message: Schema.String }, { status: 422 }) {}
export class TemplateCategoryNotAllowed
  extends ApiErrorClass<TemplateCategoryNotAllowed>()("template_category_not_allowed", Message, { status: 422 }) {}
export class UnsupportedTemplate
  extends ApiErrorClass<UnsupportedTemplate>()("unsupported_template", Message, { status: 422 }) {}
export class InvalidParams extends ApiErrorClass<InvalidParams>()("invalid_params", {
  ...Message,
  fields: Schema.optional(Fields),
  errors: Schema.optional(Fields),
}, { status: 422 }) {}
export class TemplateExists extends ApiErrorClass<TemplateExists>()("template_exists", Message, { status: 409 }) {}
export class TemplateNotEditable
  extends ApiErrorClass<TemplateNotEditable>()("template_not_editable", { ...Message, status: Schema.String }, {
    status: 409,
  }) {}
export class ConsentOptedOut extends ApiErrorClass<ConsentOptedOut>()("consent_opted_out", {}, { status: 422 }) {}
/** On the account API (DECISIONS 10) it adds `next`: the same call, to make again. */
export class TemplatesUnavailable extends ApiErrorClass<TemplatesUnavailable>()("templates_unavailable", {
  ...Message,
  next: Schema.optional(Next),
}, { status: 503 }) {}
/** Another create call holds the analysis' suggestions run; `next` is the same call, to make again. */
export class SuggestionsBusy extends ApiErrorClass<SuggestionsBusy>()("suggestions_busy", {
  ...Message,
  next: Next,
}, { status: 409 }) {}

/** Every code of this part of the catalogue (core/errors.ts merges them). */
export const notificationsErrors = [
  WhatsappNotEnabled,
  NoWhatsappNumber,
  NumberDisconnected,
  UnknownTemplate,
  TemplateNotApproved,
  TemplateCategoryNotAllowed,
  UnsupportedTemplate,
  InvalidParams,
  ConsentOptedOut,
  TemplatesUnavailable,
  TemplateExists,
  TemplateNotEditable,
  SuggestionsBusy,
] as const
