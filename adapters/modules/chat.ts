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
import { ChatAttendantsRepoMemory, ChatConversationsRepoMemory, ChatMenusRepoMemory } from "../memory/chat.ts"
import { ChatTeamRepoMemory } from "../memory/chat-team.ts"
import { ChatTeam } from "../../core/chat/team-service.ts"
import { teamOperations } from "../../core/chat/team-operations.ts"
import { ChatTeamRepoSql } from "../sql/chat-team.ts"
import { migration as team } from "../sql/migrations/chat/0003_team.ts"
import { product } from "../product.ts"
import { ChatAttendantsRepoSql, ChatMenusRepoSql } from "../sql/chat.ts"
import { ChatConversationsRepoSql } from "../sql/chat-conversations.ts"
import { migration as menusAttendants } from "../sql/migrations/chat/0001_menus_attendants.ts"
import { migration as conversations } from "../sql/migrations/chat/0002_conversations.ts"
import { migration as stores } from "../sql/migrations/chat/0004_stores.ts"
import { AssistantStoresLive, ChatStores } from "../../core/chat/stores.ts"
import { storesConsoleOperations, storesOperations } from "../../core/chat/stores-operations.ts"
import { ChatStoresRepo } from "../../ports/store/chat-stores.ts"
import { ChatStoresRepoMemory } from "../memory/chat-stores.ts"
import { ChatStoresRepoSql } from "../sql/chat-stores.ts"
import { migration as logSearch } from "../sql/migrations/chat/0006_log_search.ts"
import { migration as replies } from "../sql/migrations/chat/0005_replies.ts"
import { migration as handovers } from "../sql/migrations/chat/0007_handovers.ts"
import { migration as logShortSearch } from "../sql/migrations/chat/0008_log_short_search.ts"
import { ChatRepliesRepoMemory } from "../memory/chat-replies.ts"
import { ChatRepliesRepoSql } from "../sql/chat-replies.ts"

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

/** Connected stores are read again every 6 hours of platform time: the job falls due when the earliest store does. */
const storeJobs: Effect.Effect<ReadonlyArray<Job>, never, ChatStores | ChatStoresRepo> = Effect.gen(function* () {
  const service = yield* ChatStores
  const repo = yield* ChatStoresRepo
  return [{ name: "chat.stores.read", nextDue: repo.earliestDue, run: service.readDue() }]
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
    ChatTeamRepoMemory,
    ChatStoresRepoMemory,
    ChatRepliesRepoMemory,
  ),
  sql: Layer.mergeAll(
    ChatMenusRepoSql,
    ChatAttendantsRepoSql,
    ChatConversationsRepoSql,
    ChatTeamRepoSql,
    ChatStoresRepoSql,
    ChatRepliesRepoSql,
  ),
  migrations: [menusAttendants, conversations, team, stores, replies, logSearch, handovers, logShortSearch],
  services: () => {
    const conversing = Conversations.Default.pipe(Layer.provideMerge(Replies.Default))
    return Layer.mergeAll(
      Layer.provide(Chat.Default, AssistantStoresLive),
      conversing,
      Layer.provide(ChatNetworkInbound.Default, conversing),
      ChatTeam.Default,
      ChatStores.Default,
    )
  },
  operations: [
    ...chatOperations,
    ...logOperations,
    ...teamOperations,
    ...storesOperations,
    ...storesConsoleOperations,
    ...chatNetworkWebhookOperations,
  ],
  jobs: Effect.zipWith(conversationJobs, storeJobs, (a, b) => [...a, ...b]),
})
