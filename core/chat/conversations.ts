/**
 * The auto-attendant's conversations (DECISIONS 9.3): a customer's message drives the engine
 * (core/chat/conversation.ts) in one transaction that holds the customer's conversation and queues its replies
 * (sent through the chat network right after, core/chat/replies.ts), the expiry job ends those
 * silent for 24 hours, the retention job deletes them 90 days after they started, and the account API lists them
 * (the attendant log).
 */
import { Clock, Effect, Option } from "effect"
import { Secrets } from "../../ports/secrets.ts"
import { ChatAttendantsRepo, type ChatConversation, ChatConversationsRepo } from "../../ports/store/chat.ts"
import { ChatRepliesRepo } from "../../ports/store/chat-replies.ts"
import { ChatTeamRepo } from "../../ports/store/chat-team.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { keysetPage } from "../accounts/lists.ts"
import { Chat as Limits, Retention } from "../limits.ts"
import type { AccountPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import type { ApplicationId, Millis, SaudiMobile } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { maskForEvents } from "../notifications/wire.ts"
import {
  endedOutcomes,
  type Event,
  expiresAt,
  type OutcomeFilter,
  type OutMessage,
  silenceMillis,
  type Situation,
  step,
  teamFree,
} from "./conversation.ts"
import type { Attendant } from "./model.ts"
import { queued, Replies } from "./replies.ts"

export interface CustomerMessage {
  readonly application: ApplicationId
  readonly from: SaudiMobile
  readonly name: string | null
  readonly text: string | null
  readonly choiceId: string | null
}

/** What the attendant did with a customer's message: the conversation it is in (if any) and what it sent back. */
export interface Handled {
  readonly conversation: ChatConversation | null
  readonly messages: ReadonlyArray<OutMessage>
  readonly language: Attendant["language"]
}

export interface LogQuery {
  readonly q?: string | undefined
  readonly outcome?: OutcomeFilter | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** Part of a number as typed, as it reads in a stored number: a local `05…` loses its leading 0 (`+9665…`). */
const numberPart = (q: string): string => (/^05\d*$/.test(q) ? q.slice(1) : q)

/** A person who manages contacts reads full numbers and what was collected (DECISIONS 9.3, 14). */
const managesContacts = (p: AccountPrincipal): boolean => p.credential.holder?.manageContacts ?? true

export const logEntryJson = (c: ChatConversation, full: boolean) => ({
  id: c.id,
  customer_name: c.customerName,
  phone: full ? c.phone : maskForEvents(c.phone as SaudiMobile),
  choices: c.choices.map((t) => ({ id: t.id, title: t.title, at: isoMillis(t.at) })),
  outcome: c.outcome,
  collected: full ? c.collected : null,
  started_at: isoMillis(c.startedAt),
  ended_at: c.endedAt === null ? null : isoMillis(c.endedAt),
})

export class Conversations extends Effect.Service<Conversations>()("core/Conversations", {
  effect: Effect.gen(function* () {
    const tx = yield* Transactor
    const attendants = yield* ChatAttendantsRepo
    const conversations = yield* ChatConversationsRepo
    const secrets = yield* Secrets
    const replies = yield* ChatRepliesRepo
    const team = yield* ChatTeamRepo
    const sender = yield* Replies
    const cursors = yield* makeCursors
    const now = Effect.map(Clock.currentTimeMillis, (ms) => ms as Millis)

    /** The attendant as the engine sees it; `free`: whether a team member is free (asked only when it matters). */
    const situationOf = (a: Attendant | null, at: Millis, menu: unknown, free: boolean): Situation => ({
      now: at,
      enabled: a?.enabled ?? false,
      mode: a?.mode ?? "always",
      teamFree: free,
      language: a?.language ?? "ar",
      live: a?.live ?? null,
      menu,
    })

    /**
     * Whether a team member is free, read only when the answer decides something: an `after_hours` attendant that
     * is on and live, and a message that would start a conversation (none ongoing, or the ongoing one expired).
     */
    const freeFor = (a: Attendant | null, held: ChatConversation | null, at: Millis, event: Event) =>
      a === null || a.mode !== "after_hours" || !a.enabled || a.live === null || event._tag !== "Inbound" ||
        (held !== null && at < expiresAt(held))
        ? Effect.succeed(false)
        : Effect.zipWith(
          team.activeCount(a.applicationId),
          conversations.handedOverSince(a.applicationId, (at - Limits.handoverBusyMs) as Millis),
          teamFree,
        )

    /** The menu of the version the conversation began with (kept among the versions). */
    const menuOf = (a: Attendant | null, held: ChatConversation | null) =>
      held === null
        ? Effect.succeed(null)
        : a?.live?.version === held.version
        ? Effect.succeed(a.live.menu)
        : Effect.map(attendants.version(held.applicationId, held.version), (v) => Option.getOrNull(v)?.menu ?? null)

    /** Stores what one event did: the conversation it ended (first: it frees the customer's place) and the next. */
    const persist = (applicationId: ApplicationId, held: ChatConversation | null, s: ReturnType<typeof step>) =>
      Effect.gen(function* () {
        const ended = s.ended === null ? null : { ...s.ended, applicationId }
        const next = s.conversation === null ? null : { ...s.conversation, applicationId }
        if (ended !== null) yield* conversations.save(ended)
        if (next !== null && s.conversation !== s.ended && s.conversation !== held) yield* conversations.save(next)
        return next
      })

    const run = (applicationId: ApplicationId, phone: SaudiMobile, event: Event) =>
      Effect.gen(function* () {
        const at = yield* now
        const newId = yield* secrets.uuid
        return yield* tx.withTransaction(Effect.gen(function* () {
          // The customer's lock, then the attendant, in one round trip; their ongoing conversation after the lock.
          const a = Option.getOrNull(yield* attendants.forCustomer(applicationId, phone))
          const held = Option.getOrNull(yield* conversations.ongoing(applicationId, phone))
          const free = yield* freeFor(a, held, at, event)
          const s = step(held, event, situationOf(a, at, yield* menuOf(a, held), free), phone, newId)
          const conversation = yield* persist(applicationId, held, s)
          const language = a?.language ?? "ar"
          // The replies leave with the step or not at all: queued in its transaction.
          const by = s.conversation ?? s.ended
          const ids = by === null ? [] : yield* Effect.forEach(s.messages, () => secrets.uuid)
          const rows = ids.length === 0
            ? []
            : queued({ applicationId, phone, conversationId: by!.id, lang: language }, s.messages, ids, at)
          // Queued claimed by this request when nothing of the customer's waits before them (no claim to make after).
          const claimed = rows.length > 0 && (yield* replies.append(rows, (at + Limits.replyClaimMs) as Millis))
          return { handled: { conversation, messages: s.messages, language } satisfies Handled, rows, claimed }
        }))
      }).pipe(
        // Then sent at once, in order, through the network (a failure is tried again by the delivery job).
        Effect.tap(({ claimed, rows }) =>
          rows.length === 0
            ? Effect.void
            : claimed
            ? sender.deliverClaimed(rows)
            : sender.deliver(applicationId, phone, rows[rows.length - 1].id)
        ),
        Effect.map(({ handled }) => handled),
      )

    const inbound = Effect.fn("Conversations.inbound", untracedStacks)(function* (m: CustomerMessage) {
      return yield* run(m.application, m.from, {
        _tag: "Inbound",
        ...(m.text === null ? {} : { text: m.text }),
        ...(m.choiceId === null ? {} : { choiceId: m.choiceId }),
        ...(m.name === null ? {} : { name: m.name }),
      })
    })

    /** Ends every conversation whose customer has been silent 24 hours (at most a batch per run). */
    const expireDue = Effect.fn("Conversations.expireDue", untracedStacks)(function* () {
      const silent = yield* conversations.silentSince(((yield* now) - silenceMillis) as Millis, Retention.batchRows)
      yield* Effect.forEach(silent, (c) => run(c.applicationId, c.phone as SaudiMobile, { _tag: "Tick" }), {
        discard: true,
      })
    })

    /** Deletes the conversations that started 90 days ago or earlier. */
    const pruneDue = Effect.fn("Conversations.pruneDue", untracedStacks)(function* () {
      const before = ((yield* now) - Limits.logRetentionMs + 1) as Millis
      while ((yield* conversations.prune(before, Retention.batchRows)) === Retention.batchRows) {
        // another batch
      }
    })

    const log = Effect.fn("Conversations.log")(function* (p: AccountPrincipal, applicationId: string, q: LogQuery) {
      const full = managesContacts(p)
      const outcomes = q.outcome === undefined ? null : q.outcome === "ended" ? endedOutcomes : [q.outcome]
      return yield* keysetPage(
        cursors,
        `chat.attendant.log:${applicationId}`,
        p.account.id,
        { limit: q.limit ?? 20, cursor: q.cursor },
        (after, limit) =>
          conversations.page({
            applicationId: applicationId as ApplicationId,
            q: q.q === undefined || q.q === "" ? null : q.q,
            qPhone: full && q.q !== undefined && q.q !== "" ? numberPart(q.q) : null,
            outcomes,
            after: after && { startedAt: Number(after[0]) as Millis, id: String(after[1]) },
            limit,
          }),
        (c) => [c.startedAt, c.id],
        (c) => logEntryJson(c, full),
      )
    })

    return { inbound, expireDue, pruneDue, log } as const
  }),
}) {}
