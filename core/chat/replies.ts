/**
 * The auto-attendant's replies through the chat network (DECISIONS 9.3: "greeting to the outbox"): a step of a
 * customer's conversation queues its messages in the step's transaction (core/chat/conversations.ts); then they
 * leave in order through the network's session send. Whoever claims the head of a customer's queue sends it (the
 * request that queued it, at once; the delivery job after a failure): a claim is held 60 s, so two senders never
 * send one reply, and a sent reply is deleted. A step whose customer had nothing queued queues its replies claimed
 * already (one statement fewer: `deliverClaimed`). A refusal or no answer tries again later (5 s, doubling up to an
 * hour, 10 attempts), and the customer's later replies wait behind it.
 */
import { Clock, Effect, Either, Option } from "effect"
import { ChatNetwork } from "../../ports/chat-network.ts"
import { ChatRepliesRepo, type ChatReply, type ReplyQueue } from "../../ports/store/chat-replies.ts"
import { Chat as Limits, Retention } from "../limits.ts"
import type { ApplicationId, Millis, SaudiMobile } from "../shared/brands.ts"
import { untracedStacks } from "../shared/tracing.ts"
import type { OutMessage } from "./conversation.ts"

/** The label of the button that opens a list of choices, in the attendant's language. */
export const listButtonLabels = { ar: "القائمة", en: "Choices" } as const

/** `auto` writes as the text reads: Arabic letters in it make it Arabic. */
export const labelOf = (lang: string, text: string): string =>
  lang === "en" || (lang === "auto" && !/[\u0600-\u06FF]/.test(text)) ? listButtonLabels.en : listButtonLabels.ar

/** The wait after the n-th failed attempt (n ≥ 1): 5 s, doubling, at most an hour. */
export const retryDelay = (attempts: number): number =>
  Math.min(Limits.replyRetryMs * 2 ** Math.min(attempts - 1, 30), Limits.replyRetryMaxMs)

/** The queue rows of one step's messages, in order, due at once. */
export const queued = (
  to: ReplyQueue & { readonly conversationId: string; readonly lang: string },
  messages: ReadonlyArray<OutMessage>,
  ids: ReadonlyArray<string>,
  at: Millis,
): ReadonlyArray<ChatReply> =>
  messages.map((message, i) => ({
    id: ids[i],
    applicationId: to.applicationId,
    phone: to.phone,
    conversationId: to.conversationId,
    message,
    lang: to.lang,
    createdAt: at,
    dueAt: at,
    attempts: 0,
  }))

export class Replies extends Effect.Service<Replies>()("core/ChatReplies", {
  effect: Effect.gen(function* () {
    const repo = yield* ChatRepliesRepo
    const network = yield* ChatNetwork
    const now = Effect.map(Clock.currentTimeMillis, (ms) => ms as Millis)

    const sendOne = (r: ChatReply) =>
      network.sendSession({
        application: r.applicationId,
        messageId: r.id,
        to: r.phone,
        text: r.message.text,
        choices: r.message.choices,
        listButton: labelOf(r.lang, r.message.text),
        source: "attendant",
        lang: r.lang,
      })

    /**
     * One claimed reply sent: deleted once sent or given up (true: the next may go), else due again later (false).
     */
    const attempt = (r: ChatReply, at: Millis) =>
      Effect.gen(function* () {
        const sent = yield* Effect.either(sendOne(r))
        if (Either.isRight(sent)) {
          yield* repo.remove(r.id)
          return true
        }
        const attempts = r.attempts + 1
        if (attempts >= Limits.replyAttempts) {
          yield* Effect.logWarning(
            `chat: the attendant's reply ${r.id} was refused ${attempts} times (${sent.left.providerCode}); given up`,
          )
          yield* repo.remove(r.id)
          return true
        }
        yield* repo.retryAt(r.id, (at + retryDelay(attempts)) as Millis, attempts)
        return false
      })

    /**
     * Sends a customer's queue in order while its head can be claimed; stops at a failure (tried again later), or
     * once `last` is sent: what queues behind it is a later step's, which sends it itself.
     */
    const deliverTo = Effect.fn("ChatReplies.deliverTo", untracedStacks)(function* (q: ReplyQueue, last?: string) {
      for (;;) {
        const at = yield* now
        const head = yield* repo.claimHead(q, at, (at + Limits.replyClaimMs) as Millis)
        if (Option.isNone(head)) return
        const r = head.value
        if (!(yield* attempt(r, at)) || r.id === last) return
      }
    })

    /**
     * A step's replies queued claimed by the step (nothing of the customer's before them): sent in order with no
     * claim to make; a failure releases that one (due again later) and leaves the rest behind it.
     */
    const deliverClaimed = Effect.fn("ChatReplies.deliverClaimed", untracedStacks)(
      function* (replies: ReadonlyArray<ChatReply>) {
        for (const r of replies) {
          if (!(yield* attempt(r, yield* now))) return
        }
      },
    )

    /** The delivery job: every queue whose head is due (a batch at a time, until none is). */
    const deliverDue = Effect.fn("ChatReplies.deliverDue", untracedStacks)(function* () {
      for (let round = 0; round < 100; round++) {
        const due = yield* repo.dueQueues(yield* now, Retention.batchRows)
        yield* Effect.forEach(due, (q) => deliverTo(q), { discard: true, concurrency: 4 })
        if (due.length < Retention.batchRows) return
      }
    })

    /** A step's replies, just queued: the customer's queue up to the last of them. */
    const deliver = (applicationId: ApplicationId, phone: SaudiMobile, last: string) =>
      deliverTo({ applicationId, phone }, last)

    return { deliver, deliverClaimed, deliverDue, earliestDue: repo.earliestDue } as const
  }),
}) {}
