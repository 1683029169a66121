/**
 * Chat's connected-app operations (DECISIONS 9.1, 9.2), each declared once. Scope is judged right after the key is
 * recognised (`scopeFirst`), before expiry, the IP allowlist and the account's state.
 */
import { Schema } from "effect"
import { LiveKeyRequired, NotFound } from "../pipeline/errors.ts"
import { type AnyOperation, operation, type Parameter, type RawInput } from "../pipeline/operation.ts"
import { draftInput, enabledInput, settingsInput } from "./attendant-input.ts"
import { AttendantNoDraft, AttendantNotReady, MenuLimit } from "./errors.ts"
import { MenuCreateBody, MenuOutput, MenuUpdateBody } from "./menus.ts"
import { attendantLanguages, attendantModes, AttendantOutput, DraftOutput, PublishOutput } from "./model.ts"
import { Chat } from "./service.ts"

const menusGuard = { audience: "application", scope: "chat:menus", scopeFirst: true, liveOnly: true } as const
const attendantGuard = { audience: "application", scope: "chat:attendant", scopeFirst: true, liveOnly: true } as const

const idParameter: Parameter = {
  name: "id",
  in: "path",
  description: "The menu's id",
  schema: Schema.UUID,
  required: true,
}

type Obj = Readonly<Record<string, unknown>>
const bodyOf = (raw: RawInput): Obj => (raw.body ?? {}) as Obj

const Mode = Schema.Literal(...attendantModes).annotations({
  description: "`always` (default) or `after_hours` (no team member free)",
})
const Language = Schema.Literal(...attendantLanguages).annotations({ description: "`ar` (default), `en` or `auto`" })

export const DraftBody = Schema.Struct({
  menu: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "`{ greeting, choices }`: at most 64 KB of JSON and 256 choices in all; saved with its `problems`",
  }),
  enabled: Schema.optional(Schema.Boolean),
  mode: Schema.optional(Mode),
  language: Schema.optional(Language),
}).annotations({ identifier: "AttendantDraftSave" })

const menuOperations = [
  operation({
    name: "chat.menus.list",
    summary: "Lists the calling app's conversation menus of the application, oldest first.",
    method: "GET",
    path: "/v1/chat/menus",
    caller: { _tag: "Key", guard: menusGuard },
    parameters: [],
    body: undefined,
    output: Schema.Struct({ data: Schema.Array(MenuOutput), next_cursor: Schema.Null }),
    errors: [LiveKeyRequired],
    idempotent: false,
    service: Chat,
    run: (s, p) => s.listMenus(p),
  }),
  operation({
    name: "chat.menus.create",
    summary: "Adds a conversation menu (a title and an https link): at most 10 per app and application.",
    method: "POST",
    path: "/v1/chat/menus",
    caller: { _tag: "Key", guard: menusGuard },
    answer: { status: 201, envelope: "bare" },
    parameters: [],
    body: MenuCreateBody,
    output: MenuOutput,
    errors: [LiveKeyRequired, MenuLimit],
    idempotent: true,
    service: Chat,
    run: (s, p, input) => s.createMenu(p, input.body),
  }),
  operation({
    name: "chat.menus.show",
    summary: "Reads one of the calling app's conversation menus.",
    method: "GET",
    path: "/v1/chat/menus/{id}",
    caller: { _tag: "Key", guard: menusGuard },
    parameters: [idParameter],
    body: undefined,
    output: MenuOutput,
    errors: [LiveKeyRequired, NotFound],
    idempotent: false,
    service: Chat,
    run: (s, p, input) => s.showMenu(p, input.params.id),
  }),
  operation({
    name: "chat.menus.update",
    summary: "Changes a conversation menu's title or link.",
    method: "PATCH",
    path: "/v1/chat/menus/{id}",
    caller: { _tag: "Key", guard: menusGuard },
    parameters: [idParameter],
    body: MenuUpdateBody,
    output: MenuOutput,
    errors: [LiveKeyRequired, NotFound],
    idempotent: true,
    service: Chat,
    run: (s, p, input) => s.updateMenu(p, input.params.id, input.body),
  }),
  operation({
    name: "chat.menus.delete",
    summary: "Removes a conversation menu.",
    method: "DELETE",
    path: "/v1/chat/menus/{id}",
    caller: { _tag: "Key", guard: menusGuard },
    parameters: [idParameter],
    body: undefined,
    output: Schema.Struct({ id: Schema.UUID, deleted: Schema.Literal(true) }),
    errors: [LiveKeyRequired, NotFound],
    idempotent: true,
    service: Chat,
    run: (s, p, input) => s.deleteMenu(p, input.params.id),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

const attendantOperations = [
  operation({
    name: "chat.attendant.show",
    summary: "Reads the application's auto-attendant: its settings, live version and draft with its problems.",
    method: "GET",
    path: "/v1/chat/attendant",
    caller: { _tag: "Key", guard: attendantGuard },
    parameters: [],
    body: undefined,
    output: AttendantOutput,
    errors: [LiveKeyRequired],
    idempotent: false,
    service: Chat,
    run: (s, p) => s.showAttendant(p),
  }),
  operation({
    name: "chat.attendant.draft",
    summary: "Saves the draft menu, with its problems; `enabled`, `mode` and `language` given apply at once.",
    method: "PUT",
    path: "/v1/chat/attendant/draft",
    caller: { _tag: "Key", guard: attendantGuard },
    parameters: [],
    body: DraftBody,
    decode: (raw) => draftInput(bodyOf(raw)),
    output: DraftOutput,
    errors: [LiveKeyRequired],
    idempotent: true,
    service: Chat,
    run: (s, p, input) => s.saveDraft(p, input),
  }),
  operation({
    name: "chat.attendant.publish",
    summary: "Publishes the draft as the next version (the draft stays); a draft equal to the live menu answers " +
      "the live version.",
    method: "POST",
    path: "/v1/chat/attendant/publish",
    caller: { _tag: "Key", guard: attendantGuard },
    parameters: [],
    body: undefined,
    output: PublishOutput,
    errors: [LiveKeyRequired, AttendantNoDraft, AttendantNotReady],
    idempotent: true,
    service: Chat,
    run: (s, p) => s.publish(p),
  }),
  operation({
    name: "chat.attendant.enabled",
    summary: "Switches the auto-attendant on or off (it may be on before anything is live).",
    method: "PUT",
    path: "/v1/chat/attendant/enabled",
    caller: { _tag: "Key", guard: attendantGuard },
    parameters: [],
    body: Schema.Struct({ enabled: Schema.Boolean }).annotations({ identifier: "AttendantEnabled" }),
    decode: (raw) => enabledInput(bodyOf(raw)),
    output: AttendantOutput,
    errors: [LiveKeyRequired],
    idempotent: true,
    service: Chat,
    run: (s, p, input) => s.setEnabled(p, input),
  }),
  operation({
    name: "chat.attendant.settings",
    summary: "Changes the auto-attendant's mode or language (at least one).",
    method: "PATCH",
    path: "/v1/chat/attendant/settings",
    caller: { _tag: "Key", guard: attendantGuard },
    parameters: [],
    body: Schema.Struct({ mode: Schema.optional(Mode), language: Schema.optional(Language) }).annotations({
      identifier: "AttendantSettings",
    }),
    decode: (raw) => settingsInput(bodyOf(raw)),
    output: AttendantOutput,
    errors: [LiveKeyRequired],
    idempotent: true,
    service: Chat,
    run: (s, p, input) => s.changeSettings(p, input),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

export const chatOperations = [...menuOperations, ...attendantOperations] as const
