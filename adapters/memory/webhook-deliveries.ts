/**
 * Webhook deliveries in memory. Transactions are serialized by the memory store, so a claim is one
 * atomic step and nothing is ever held by another caller; leases still lapse as in the SQL store.
 */
import { Effect, Layer, Option } from "effect"
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import {
  type DeliveryAttempt,
  RoutePosition,
  WebhookDeliveriesRepo,
  type WebhookDelivery,
} from "../../ports/store/webhook-deliveries.ts"
import { addTo, deleteIn, memoryTables, pushUnder, type Recorder, setIn, type TablesOf } from "./db.ts"
import { outboxTables } from "./outbox.ts"
import { outboxRetentionTables } from "./outbox-retention.ts"
import { webhookEndpointTables } from "./webhook-endpoints.ts"

type Sets = [typeof outboxTables, typeof webhookEndpointTables, typeof outboxRetentionTables]
type Tables = TablesOf<Sets>

interface Row {
  readonly delivery: WebhookDelivery
  readonly seq: number
  readonly leaseUntil: number | null
  readonly leaseToken: string | null
}

const ownerKey = (kind: string, id: string) => `${kind}\u0000${id}`

const make = (db: Effect.Effect.Success<ReturnType<typeof memoryTables<Sets>>>): WebhookDeliveriesRepo["Type"] => {
  const rows = new Map<string, Row>()
  const pending = new Set<string>()
  const attempts = new Map<string, Array<DeliveryAttempt>>()
  const byEventOwner = new Set<string>()
  const routed = new Set<string>()
  // Every outbox event before `cursor.index` is routed; `cursor.lastId` detects a reshaped outbox.
  const cursor = { index: 0, lastId: undefined as string | undefined }
  let seq = 0

  const put = (row: Row, record: Recorder) => {
    setIn(rows, row.delivery.id, row, record)
    if (row.delivery.nextAttemptAt !== null) addTo(pending, row.delivery.id, record)
    else if (pending.has(row.delivery.id)) {
      pending.delete(row.delivery.id)
      record(() => pending.add(row.delivery.id))
    }
  }

  /** A cursor whose event moved (the outbox was pruned or rolled back) starts over; it only costs a rescan. */
  const checkCursor = (t: Tables) => {
    if (cursor.index > t.outbox.length || (cursor.index > 0 && t.outbox[cursor.index - 1].id !== cursor.lastId)) {
      cursor.index = 0
      cursor.lastId = undefined
    }
  }

  const unroutedIn = (t: Tables, limit: number): Array<OutboxEvent> => {
    checkCursor(t)
    const found: Array<OutboxEvent> = []
    for (let i = cursor.index; i < t.outbox.length && found.length < limit; i++) {
      if (!routed.has(t.outbox[i].id)) found.push(t.outbox[i])
    }
    return found
  }

  /** Moves the cursor over routed events, undone with the transaction that routed them. */
  const advance = (t: Tables, record: Recorder) => {
    checkCursor(t)
    const before = { ...cursor }
    while (cursor.index < t.outbox.length && routed.has(t.outbox[cursor.index].id)) cursor.index++
    cursor.lastId = cursor.index > 0 ? t.outbox[cursor.index - 1].id : undefined
    record(() => Object.assign(cursor, before))
  }

  const eventsPending = () => {
    const events = new Set<string>()
    for (const id of pending) {
      const eventId = rows.get(id)!.delivery.eventId
      if (eventId !== null) events.add(eventId)
    }
    return events
  }

  /**
   * How many events at the front of the outbox retention may drop: appended before `before`, routed, none of
   * their deliveries pending. Only a prefix goes, so positions over the outbox stay (with `outboxDropped`).
   */
  const droppablePrefix = (t: Tables, before: number, limit: number) => {
    const held = eventsPending()
    let k = 0
    while (k < t.outbox.length && k < limit) {
      const e = t.outbox[k]
      if (e.createdAt >= before || !routed.has(e.id) || held.has(e.id)) break
      k++
    }
    return k
  }

  return {
    unrouted: (limit) =>
      db.read((t) => {
        const events = unroutedIn(t, limit)
        const through = events.length === 0 ? null : RoutePosition(events[events.length - 1].id)
        return { events, through, read: events.length }
      }),
    // Every event up to `through` (an event's id): the batch handed out before it.
    markRouted: (through) =>
      db.write((t, record) => {
        checkCursor(t)
        const last: string = through
        let end = cursor.index
        while (end < t.outbox.length && t.outbox[end].id !== last) end++
        if (end === t.outbox.length) return
        for (let i = cursor.index; i <= end; i++) addTo(routed, t.outbox[i].id, record)
        advance(t, record)
      }),
    enqueue: (deliveries) =>
      db.write((_t, record) => {
        for (const d of deliveries) {
          const key = d.eventId === null ? null : `${d.eventId}\u0000${ownerKey(d.owner.kind, d.owner.id)}`
          if (key !== null && byEventOwner.has(key)) continue
          if (key !== null) addTo(byEventOwner, key, record)
          put({ delivery: d, seq: ++seq, leaseUntil: null, leaseToken: null }, record)
        }
      }),
    claimDue: (now, leaseUntil, leaseToken, limit) =>
      Effect.flatMap(
        db.write((_t, record) => {
          const due = [...pending].map((id) => rows.get(id)!).filter((r) =>
            r.delivery.nextAttemptAt! <= now && (r.leaseUntil === null || r.leaseUntil <= now)
          ).sort((a, b) => a.delivery.nextAttemptAt! - b.delivery.nextAttemptAt! || a.seq - b.seq).slice(0, limit)
          for (const r of due) put({ ...r, leaseUntil, leaseToken }, record)
          return due.map((r) => r.delivery)
        }),
        (due) =>
          Effect.forEach(due, (delivery) =>
            db.read((t) => ({
              delivery,
              leaseToken,
              endpoint: t.webhookEndpoints.get(ownerKey(delivery.owner.kind, delivery.owner.id)) ?? null,
            }))),
      ),
    record: (id, leaseToken, attempt, o) =>
      db.write((_t, record) => {
        pushUnder(attempts, id, attempt, record)
        const r = rows.get(id)
        if (r === undefined || r.leaseToken !== leaseToken) return false
        const delivery = {
          ...r.delivery,
          status: o.status,
          scheduledAttempts: o.scheduledAttempts,
          nextAttemptAt: o.nextAttemptAt,
          manual: false,
        }
        put({ ...r, delivery, leaseUntil: null, leaseToken: null }, record)
        return true
      }),
    get: (id) => db.read(() => Option.map(Option.fromNullable(rows.get(id)), (r) => r.delivery)),
    replay: (id, now) =>
      db.write((_t, record) => {
        const r = rows.get(id)
        if (r === undefined) return Option.none()
        const d = r.delivery
        const delivery: WebhookDelivery = {
          ...d,
          manual: d.status === "pending" ? d.manual : true,
          status: "pending",
          nextAttemptAt: now,
        }
        put({ ...r, delivery, leaseUntil: null, leaseToken: null }, record)
        return Option.some(delivery)
      }),
    list: (owner, limit) =>
      db.read(() =>
        [...rows.values()]
          .filter((r) => r.delivery.owner.kind === owner.kind && r.delivery.owner.id === owner.id)
          .sort((a, b) => b.delivery.createdAt - a.delivery.createdAt || b.seq - a.seq)
          .slice(0, limit)
          .map((r) => ({ delivery: r.delivery, attempts: (attempts.get(r.delivery.id) ?? []).slice().reverse() }))
      ),
    nextDue: db.read((t) => {
      let min: number | undefined = unroutedIn(t, 1)[0]?.createdAt
      for (const id of pending) {
        const r = rows.get(id)!
        const due = Math.max(r.delivery.nextAttemptAt!, r.leaseUntil ?? 0)
        if (min === undefined || due < min) min = due
      }
      return Option.fromNullable(min)
    }),
    pruneLog: (before, limit) =>
      db.write((_t, record) => {
        let n = 0
        for (const r of [...rows.values()]) {
          if (n === limit) break
          const d = r.delivery
          if (d.status === "pending" || d.createdAt >= before) continue
          deleteIn(rows, d.id, record)
          deleteIn(attempts, d.id, record)
          if (d.eventId !== null) {
            const key = `${d.eventId}\u0000${ownerKey(d.owner.kind, d.owner.id)}`
            if (byEventOwner.delete(key)) record(() => byEventOwner.add(key))
          }
          n++
        }
        return n
      }),
    pruneOutbox: (before, limit) =>
      db.write((t, record) => {
        checkCursor(t)
        const k = droppablePrefix(t, before, limit)
        if (k === 0) return 0
        // Every dropped event is routed, so the cursor (the routed prefix's length) is at least `k`.
        const dropped = t.outbox.splice(0, k)
        const saved = { ...cursor }
        cursor.index -= k
        if (cursor.index === 0) cursor.lastId = undefined
        t.outboxDropped.count += k
        for (const e of dropped) {
          t.outboxIds.delete(e.id)
          routed.delete(e.id)
        }
        record(() => {
          t.outbox.unshift(...dropped)
          t.outboxDropped.count -= k
          Object.assign(cursor, saved)
          for (const e of dropped) {
            t.outboxIds.add(e.id)
            routed.add(e.id)
          }
        })
        return k
      }),
    oldestPrunable: db.read((t) => {
      let delivery: number | undefined
      for (const r of rows.values()) {
        const d = r.delivery
        if (d.status !== "pending" && (delivery === undefined || d.createdAt < delivery)) delivery = d.createdAt
      }
      const first = t.outbox[0]
      const event = first !== undefined && routed.has(first.id) && !eventsPending().has(first.id)
        ? first.createdAt
        : undefined
      return { delivery: Option.fromNullable(delivery), event: Option.fromNullable(event) }
    }),
  }
}

export const WebhookDeliveriesRepoMemory = Layer.effect(
  WebhookDeliveriesRepo,
  Effect.map(memoryTables(outboxTables, webhookEndpointTables, outboxRetentionTables), make),
)
