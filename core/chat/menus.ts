/**
 * Conversation menus (DECISIONS 9.1, 17): links a connected app adds beside the conversations of its connection's
 * application, each app's own (its key's `app_name`), at most 10 per app and application. Fields refused as
 * `required` (missing), `too_long` (`title` over 30 characters, `url` over 2,048) or `invalid` (anything else).
 */
import { Schema } from "effect"
import type { ApplicationId, Millis } from "../shared/brands.ts"
import { check, NonBlank, Text } from "../shared/fields.ts"
import { withoutControlCharacters } from "../shared/names.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { Chat } from "../limits.ts"
import { isHttpsUrl } from "../notifications/params.ts"

export interface ChatMenu {
  readonly id: string
  readonly applicationId: ApplicationId
  /** The connected app's `app_name`: another app's menus are not found. */
  readonly appName: string
  readonly title: string
  readonly url: string
  readonly createdAt: Millis
  readonly updatedAt: Millis
}

export const MenuTitle = withoutControlCharacters(NonBlank(Text(Chat.menuTitleMax))).annotations({
  description: `1 to ${Chat.menuTitleMax} characters`,
})

export const MenuUrl = Text(Chat.menuUrlMax).pipe(
  check(isHttpsUrl, "must be an absolute https URL", { jsonSchema: { format: "uri" } }),
).annotations({ description: `An absolute \`https\` URL, at most ${Chat.menuUrlMax} characters` })

export const MenuCreateBody = Schema.Struct({ title: MenuTitle, url: MenuUrl }).annotations({
  identifier: "ChatMenuCreate",
})
export const MenuUpdateBody = Schema.Struct({
  title: Schema.optional(MenuTitle),
  url: Schema.optional(MenuUrl),
}).annotations({ identifier: "ChatMenuUpdate" })

export const MenuOutput = Schema.Struct({
  id: Schema.UUID,
  title: Schema.String,
  url: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String,
}).annotations({ identifier: "ChatMenu" })

export const menuJson = (m: ChatMenu): typeof MenuOutput.Type => ({
  id: m.id,
  title: m.title,
  url: m.url,
  created_at: isoMillis(m.createdAt),
  updated_at: isoMillis(m.updatedAt),
})
