/**
 * Chat (DECISIONS 9): conversation menus and the auto-attendant of connected apps, with their tables, service and
 * operations, the attendant's conversations and their log; the team and the store assistant join this module as the
 * product is built.
 */
import { Effect, Layer, Option } from "effect"
import { silenceMillis } from "../../core/chat/conversation.ts"
import { Conversations } from "../../core/chat/conversations.ts"
import { logOperations } from "../../core/chat/log-operation.ts"
import { ChatNetworkInbound, chatNetworkWebhookOperations } from "../../core/chat/network-inbound.ts"
import { Replies } from "../../core/chat/replies.ts"
import { Chat as Limits } from "../../core/limits.ts"
import type { Job } from "../../core/shared/job.ts"
import { ChatConversationsRepo } from "../../ports/store/chat.ts"
import { chatErrors } from "../../core/chat/errors.ts"
import { chatOperations } from "../../core/chat/operations.ts"
import { chatScopes } from "../../core/chat/scopes.ts"
import { Chat } from "../../core/chat/service.ts"
import { AssistantStores } from "../../ports/assistant-stores.ts"
import { ChatAttendantsRepoMemory, ChatConversationsRepoMemory, ChatMenusRepoMemory } from "../memory/chat.ts"
import { product } from "../product.ts"
import { ChatAttendantsRepoSql, ChatMenusRepoSql } from "../sql/chat.ts"
import { ChatConversationsRepoSql } from "../sql/chat-conversations.ts"
import { migration as menusAttendants } from "../sql/migrations/chat/0001_menus_attendants.ts"
import { migration as conversations } from "../sql/migrations/chat/0002_conversations.ts"
import { migration as replies } from "../sql/migrations/chat/0005_replies.ts"
import { ChatRepliesRepoMemory } from "../memory/chat-replies.ts"
import { ChatRepliesRepoSql } from "../sql/chat-replies.ts"

/** No online store can be connected yet (the store assistant comes later): every `assistant` choice is `no_assistant`. */
export const AssistantStoresNone = Layer.succeed(AssistantStores, { connected: () => Effect.succeed(false) })

/**
 * Conversations end 24 hours after the customer's last message (`expired`) and are deleted 90 days after they
 * started, on the platform clock: each job falls due when its earliest conversation does.
 */
const conversationJobs: Effect.Effect<ReadonlyArray<Job>, never, Conversations | ChatConversationsRepo | Replies> =
  Effect.gen(function* () {
    const service = yield* Conversations
    const repo = yield* ChatConversationsRepo
    const sender = yield* Replies
    return [
      // The attendant's replies a failed send left: each customer's queue again when its head falls due.
      { name: "chat.replies.deliver", nextDue: sender.earliestDue, run: sender.deliverDue() },
      {
        name: "chat.conversations.expire",
        nextDue: Effect.map(repo.earliestSilent, Option.map((at) => at + silenceMillis)),
        run: service.expireDue(),
      },
      {
        name: "chat.conversations.retention",
        nextDue: Effect.map(repo.earliestStarted, Option.map((at) => at + Limits.logRetentionMs)),
        run: service.pruneDue(),
      },
    ]
  })

export const chatProduct = product({
  name: "chat",
  errors: chatErrors,
  scopes: chatScopes,
  tags: [{ name: "chat", description: "Conversation menus and the auto-attendant of connected apps (DECISIONS 9)." }],
  memory: Layer.mergeAll(
    ChatMenusRepoMemory,
    ChatAttendantsRepoMemory,
    ChatConversationsRepoMemory,
    ChatRepliesRepoMemory,
  ),
  sql: Layer.mergeAll(ChatMenusRepoSql, ChatAttendantsRepoSql, ChatConversationsRepoSql, ChatRepliesRepoSql),
  migrations: [menusAttendants, conversations, replies],
  services: () => {
    const conversing = Conversations.Default.pipe(Layer.provideMerge(Replies.Default))
    return Layer.mergeAll(
      Layer.provide(Chat.Default, AssistantStoresNone),
      conversing,
      Layer.provide(ChatNetworkInbound.Default, conversing),
    )
  },
  operations: [...chatOperations, ...logOperations, ...chatNetworkWebhookOperations],
  jobs: conversationJobs,
})
