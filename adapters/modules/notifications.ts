/**
 * Notifications (DECISIONS 7): chat-app template messages and templates, statuses and consent; its tables, its
 * service over the chat network (adapters/modules/chat-network.ts, before it in the list), its operations (the
 * network's webhook is Chat's, core/chat/network-inbound.ts: its customers' messages also reach the attendant).
 */
import { notificationsEvents } from "../../core/notifications/events.ts"
import { Layer } from "effect"
import { notificationsConsoleOperations } from "../../core/notifications/console-operations.ts"
import { notificationsErrors } from "../../core/notifications/errors.ts"
import { notificationsOperations } from "../../core/notifications/operations.ts"
import { notificationsScopes } from "../../core/notifications/scopes.ts"
import { Notifications } from "../../core/notifications/service.ts"
import {
  templateSuggestionsConsoleOperations,
  templateSuggestionsOperations,
} from "../../core/notifications/suggestions-operations.ts"
import { TemplateSuggestions } from "../../core/notifications/suggestions-service.ts"
import { ChatChannelsRepoMemory, ChatConsentRepoMemory, ChatMessagesRepoMemory } from "../memory/notifications.ts"
import { product } from "../product.ts"
import { TemplateAnalysesRepoMemory } from "../memory/template-suggestions.ts"
import { migration as chatMessages } from "../sql/migrations/notifications/0001_chat_messages.ts"
import { migration as templateSuggestions } from "../sql/migrations/notifications/0002_template_suggestions.ts"
import { TemplateAnalysesRepoSql } from "../sql/template-suggestions.ts"
import { ChatChannelsRepoSql, ChatConsentRepoSql, ChatMessagesRepoSql } from "../sql/notifications.ts"

export const notificationsProduct = product({
  name: "notifications",
  events: notificationsEvents,
  errors: notificationsErrors,
  scopes: notificationsScopes,
  tags: [{ name: "notifications", description: "Chat-app template messages and templates (DECISIONS 7)." }],
  memory: Layer.mergeAll(
    ChatMessagesRepoMemory,
    ChatChannelsRepoMemory,
    ChatConsentRepoMemory,
    TemplateAnalysesRepoMemory,
  ),
  sql: Layer.mergeAll(ChatMessagesRepoSql, ChatChannelsRepoSql, ChatConsentRepoSql, TemplateAnalysesRepoSql),
  migrations: [chatMessages, templateSuggestions],
  services: () => Layer.mergeAll(Notifications.Default, TemplateSuggestions.Default),
  operations: [
    ...notificationsOperations,
    ...notificationsConsoleOperations,
    ...templateSuggestionsOperations,
    ...templateSuggestionsConsoleOperations,
  ],
})
