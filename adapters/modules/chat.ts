/**
 * Chat (DECISIONS 9): conversation menus and the auto-attendant of connected apps, with their tables, service and
 * operations; the team, conversations and the store assistant join this module as the product is built.
 */
import { Effect, Layer } from "effect"
import { chatErrors } from "../../core/chat/errors.ts"
import { chatOperations } from "../../core/chat/operations.ts"
import { chatScopes } from "../../core/chat/scopes.ts"
import { Chat } from "../../core/chat/service.ts"
import { AssistantStores } from "../../ports/assistant-stores.ts"
import { ChatAttendantsRepoMemory, ChatConversationsRepoMemory, ChatMenusRepoMemory } from "../memory/chat.ts"
import { product } from "../product.ts"
import { ChatAttendantsRepoSql, ChatConversationsRepoSql, ChatMenusRepoSql } from "../sql/chat.ts"
import { migration as menusAttendants } from "../sql/migrations/chat/0001_menus_attendants.ts"
import { migration as conversations } from "../sql/migrations/chat/0002_conversations.ts"

/** No online store can be connected yet (the store assistant comes later): every `assistant` choice is `no_assistant`. */
export const AssistantStoresNone = Layer.succeed(AssistantStores, { connected: () => Effect.succeed(false) })

export const chatProduct = product({
  name: "chat",
  errors: chatErrors,
  scopes: chatScopes,
  tags: [{ name: "chat", description: "Conversation menus and the auto-attendant of connected apps (DECISIONS 9)." }],
  memory: Layer.mergeAll(ChatMenusRepoMemory, ChatAttendantsRepoMemory, ChatConversationsRepoMemory),
  sql: Layer.mergeAll(ChatMenusRepoSql, ChatAttendantsRepoSql, ChatConversationsRepoSql),
  migrations: [menusAttendants, conversations],
  services: () => Layer.provide(Chat.Default, AssistantStoresNone),
  operations: chatOperations,
})
