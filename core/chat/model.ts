/**
 * The auto-attendant of an application (DECISIONS 9.2): its settings (not versioned: they apply at once), its
 * draft and its live version. An application nobody has touched has the defaults: off, `always`, `ar`.
 */
import { Schema } from "effect"
import type { ApplicationId, Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { type LiveMenu, type Problem, ProblemSchema } from "./attendant.ts"

export const attendantModes = ["always", "after_hours"] as const
export type AttendantMode = typeof attendantModes[number]
export const attendantLanguages = ["ar", "en", "auto"] as const
export type AttendantLanguage = typeof attendantLanguages[number]

export interface AttendantSettings {
  readonly enabled: boolean
  readonly mode: AttendantMode
  readonly language: AttendantLanguage
}

export const defaultSettings: AttendantSettings = { enabled: false, mode: "always", language: "ar" }

export interface Draft {
  readonly menu: unknown
  readonly savedAt: Millis
}

export interface Attendant extends AttendantSettings {
  readonly applicationId: ApplicationId
  readonly draft: Draft | null
  readonly live: LiveMenu | null
}

export const newAttendant = (applicationId: ApplicationId): Attendant => ({
  applicationId,
  ...defaultSettings,
  draft: null,
  live: null,
})

const Menu = Schema.Unknown.annotations({
  description:
    '`{ greeting, choices: [{ id, title, description?, action }] }`; `action`: `{ type: "answer", text }`, ' +
    '`{ type: "team" }`, `{ type: "assistant" }` or `{ type: "menu", choices }`',
})

export const DraftOutput = Schema.Struct({
  menu: Menu,
  saved_at: Schema.String,
  problems: Schema.Array(ProblemSchema),
}).annotations({ identifier: "AttendantDraft" })

export const LiveOutput = Schema.Struct({
  version: Schema.Int,
  published_at: Schema.String,
  menu: Menu,
}).annotations({ identifier: "AttendantLive" })

export const AttendantOutput = Schema.Struct({
  enabled: Schema.Boolean,
  mode: Schema.Literal(...attendantModes),
  language: Schema.Literal(...attendantLanguages),
  live: Schema.NullOr(LiveOutput),
  draft: Schema.NullOr(DraftOutput),
}).annotations({ identifier: "Attendant" })

export const PublishOutput = Schema.Struct({ version: Schema.Int, published_at: Schema.String }).annotations({
  identifier: "AttendantPublished",
})

export const draftJson = (draft: Draft, problems: ReadonlyArray<Problem>): typeof DraftOutput.Type => ({
  menu: draft.menu,
  saved_at: isoMillis(draft.savedAt),
  problems,
})

export const attendantJson = (a: Attendant, problems: ReadonlyArray<Problem>): typeof AttendantOutput.Type => ({
  enabled: a.enabled,
  mode: a.mode,
  language: a.language,
  live: a.live === null
    ? null
    : { version: a.live.version, published_at: isoMillis(a.live.publishedAt), menu: a.live.menu },
  draft: a.draft === null ? null : draftJson(a.draft, problems),
})
