/** The auto-attendant's replies waiting to leave, in memory (as adapters/sql/chat-replies.ts). */
import { Effect, Layer, Option } from "effect"
import type { Millis } from "../../core/shared/brands.ts"
import { ChatRepliesRepo, type ChatReply, type ReplyQueue } from "../../ports/store/chat-replies.ts"
import { deleteIn, memoryTables, setIn } from "./db.ts"

interface Held extends ChatReply {
  readonly seq: number
  readonly claimedUntil: Millis | null
}

export const chatReplyTables = () => ({ chatReplies: new Map<string, Held>(), chatReplySeq: { next: 1 } })

const free = (r: Held, now: Millis) => r.dueAt <= now && (r.claimedUntil === null || r.claimedUntil <= now)

export const ChatRepliesRepoMemory = Layer.effect(
  ChatRepliesRepo,
  Effect.map(memoryTables(chatReplyTables), (db) => {
    const head = (t: ReturnType<typeof chatReplyTables>, q: ReplyQueue) =>
      [...t.chatReplies.values()]
        .filter((r) => r.applicationId === q.applicationId && r.phone === q.phone)
        .sort((x, y) => x.seq - y.seq)[0]
    /** Each customer's first reply: the only one that may leave. */
    const heads = (t: ReturnType<typeof chatReplyTables>) => {
      const first = new Map<string, Held>()
      for (const r of [...t.chatReplies.values()].sort((x, y) => x.seq - y.seq)) {
        const key = `${r.applicationId}\u0000${r.phone}`
        if (!first.has(key)) first.set(key, r)
      }
      return [...first.values()]
    }
    const plain = ({ seq: _s, claimedUntil: _c, ...reply }: Held): ChatReply => reply
    return {
      append: (replies, claimUntil) =>
        db.write((t, record) => {
          const claimed = claimUntil !== undefined && replies.length > 0 && head(t, replies[0]) === undefined
          replies.forEach((r) =>
            setIn(
              t.chatReplies,
              r.id,
              { ...r, seq: t.chatReplySeq.next++, claimedUntil: claimed ? claimUntil : null },
              record,
            )
          )
          return claimed
        }),
      claimHead: (q, now, until) =>
        db.write((t, record) => {
          const h = head(t, q)
          if (h === undefined || !free(h, now)) return Option.none()
          setIn(t.chatReplies, h.id, { ...h, claimedUntil: until }, record)
          return Option.some(plain(h))
        }),
      remove: (id) => db.write((t, record) => deleteIn(t.chatReplies, id, record)),
      retryAt: (id, dueAt, attempts) =>
        db.write((t, record) => {
          const h = t.chatReplies.get(id)
          if (h !== undefined) setIn(t.chatReplies, id, { ...h, dueAt, attempts, claimedUntil: null }, record)
        }),
      dueQueues: (now, limit) =>
        db.read((t) =>
          heads(t).filter((r) => free(r, now)).slice(0, limit).map((r) => ({
            applicationId: r.applicationId,
            phone: r.phone,
          }))
        ),
      earliestDue: db.read((t) => {
        const times = heads(t).map((r) => Math.max(r.dueAt, r.claimedUntil ?? 0))
        return times.length === 0 ? Option.none() : Option.some(Math.min(...times) as Millis)
      }),
    }
  }),
)
