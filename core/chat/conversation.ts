/**
 * The auto-attendant's conversations (DECISIONS 9.3, 14), as one pure function: `step` takes the customer's
 * conversation (or none), one event and what the attendant is now, and answers the conversation after it, the
 * messages to send and the conversation the event ended, if any. Nothing here reads a store or a clock.
 *
 * A conversation keeps the version it began with (`menu` is that version's menu, given by the caller) while a new
 * one is published; the live version only decides what a new conversation starts with.
 */
import { consentSignal } from "../notifications/consent.ts"
import type { Millis } from "../shared/brands.ts"
import { Chat } from "../limits.ts"

export const outcomes = ["answered", "team", "assistant", "human", "expired", "stopped", "ongoing"] as const
export type Outcome = typeof outcomes[number]
/** The log's `outcome` filter: an outcome, or `ended` (expired or stopped, as the spec words it). */
export const outcomeFilters = ["answered", "team", "assistant", "human", "ended", "ongoing"] as const
export type OutcomeFilter = typeof outcomeFilters[number]
export const endedOutcomes: ReadonlyArray<Outcome> = ["expired", "stopped"]

/** 24 hours without a customer message end a conversation `expired` (the limits table's). */
export const silenceMillis = Chat.conversationSilenceMs

export interface Tapped {
  readonly id: string
  readonly title: string
  readonly at: Millis
}

export interface Conversation {
  readonly id: string
  readonly phone: string
  readonly customerName: string | null
  /** The version it began with, kept while newer ones are published. */
  readonly version: number
  /** The `menu` choice whose choices were shown last; null: the top level. */
  readonly level: string | null
  readonly choices: ReadonlyArray<Tapped>
  readonly outcome: Outcome
  /** Details the customer gave; the menu has no action that asks for any yet, so `{}`. */
  readonly collected: Readonly<Record<string, string>>
  readonly startedAt: Millis
  readonly lastCustomerAt: Millis
  readonly endedAt: Millis | null
}

export type Event =
  | { readonly _tag: "Inbound"; readonly text?: string; readonly choiceId?: string; readonly name?: string }
  | { readonly _tag: "HumanReply" }
  | { readonly _tag: "SwitchedOff" }
  | { readonly _tag: "Tick" }

export interface Situation {
  readonly now: Millis
  readonly enabled: boolean
  readonly mode: "always" | "after_hours"
  /** Whether a team member is free (`teamFree` below): `after_hours` answers only when none is. */
  readonly teamFree: boolean
  /** The attendant's language (`ar` when not given): the hand-over's notice is written in it. */
  readonly language?: "ar" | "en" | "auto" | undefined
  /** The live version, which a new conversation starts with. */
  readonly live: { readonly version: number; readonly menu: unknown } | null
  /** The menu of the conversation's own version (for an ongoing one). */
  readonly menu: unknown
}

export interface OutChoice {
  readonly id: string
  readonly title: string
  readonly description: string | null
}

/** A message to the customer: text, with the choices to tap beneath it (none for an answer). */
export interface OutMessage {
  readonly text: string
  readonly choices: ReadonlyArray<OutChoice>
}

export interface Step {
  /** The customer's conversation after the event: ongoing, or the one that just ended, or none. */
  readonly conversation: Conversation | null
  readonly messages: ReadonlyArray<OutMessage>
  /** The conversation this event ended (its outcome set), if it ended one. */
  readonly ended: Conversation | null
}

type Obj = Readonly<Record<string, any>>
interface MenuChoice {
  readonly id: string
  readonly title: string
  readonly description?: string
  readonly action: Obj
}

const topChoices = (menu: unknown): ReadonlyArray<MenuChoice> => ((menu as Obj | null)?.choices ?? []) as any

/** Every choice of the menu, depth first. */
export const allChoices = (choices: ReadonlyArray<MenuChoice>): ReadonlyArray<MenuChoice> =>
  choices.flatMap((c) => [c, ...(c.action?.type === "menu" ? allChoices(c.action.choices ?? []) : [])])

/** The choices shown at a level: the top's, or those of the `menu` choice with that id. */
export const levelChoices = (menu: unknown, level: string | null): ReadonlyArray<MenuChoice> => {
  if (level === null) return topChoices(menu)
  const owner = allChoices(topChoices(menu)).find((c) => c.id === level)
  return (owner?.action?.choices ?? []) as ReadonlyArray<MenuChoice>
}

const out = (c: MenuChoice): OutChoice => ({ id: c.id, title: c.title, description: c.description ?? null })

const levelMessage = (menu: unknown, level: string | null): OutMessage => {
  const text = level === null
    ? String((menu as Obj).greeting)
    : allChoices(topChoices(menu)).find((c) => c.id === level)?.title ?? ""
  return { text, choices: levelChoices(menu, level).map(out) }
}

const isStop = (e: Event) => e._tag === "Inbound" && e.text !== undefined && consentSignal(e.text) === "opt_out"

const end = (c: Conversation, outcome: Outcome, at: Millis): Conversation => ({ ...c, outcome, endedAt: at })

const nothing = (conversation: Conversation | null): Step => ({ conversation, messages: [], ended: null })

const finished = (c: Conversation, messages: ReadonlyArray<OutMessage> = []): Step => ({
  conversation: c,
  messages,
  ended: c,
})

/**
 * Whether a member of the team is free (the spec has no presence; docs/decisions.md "after_hours"): each hand-over
 * of the last `Chat.handoverBusyMs` keeps one active member busy, so one is free while the active members
 * outnumber those hand-overs.
 */
export const teamFree = (activeMembers: number, recentHandOvers: number): boolean => activeMembers > recentHandOvers

/** The hand-over's notice to the customer, by the attendant's language (`auto`: as the tapped choice's title reads). */
export const handOverNotices = {
  ar: "شكراً لك، سيرد عليك أحد أعضاء فريقنا قريباً.",
  en: "Thank you. A member of our team will answer you shortly.",
} as const

export const handOverNotice = (language: Situation["language"], title: string): OutMessage => ({
  text: language === "en" || (language === "auto" && !/[\u0600-\u06FF]/.test(title))
    ? handOverNotices.en
    : handOverNotices.ar,
  choices: [],
})

/** Whether the attendant answers a new customer now: on, a version live, and in `after_hours` no one free. */
export const answers = (s: Situation): boolean => s.enabled && s.live !== null && (s.mode === "always" || !s.teamFree)

const start = (
  event: Extract<Event, { _tag: "Inbound" }>,
  phone: string,
  newId: string,
  s: Situation,
): Step => {
  if (!answers(s) || isStop(event)) return nothing(null)
  const live = s.live!
  const conversation: Conversation = {
    id: newId,
    phone,
    customerName: event.name ?? null,
    version: live.version,
    level: null,
    choices: [],
    outcome: "ongoing",
    collected: {},
    startedAt: s.now,
    lastCustomerAt: s.now,
    endedAt: null,
  }
  return { conversation, messages: [levelMessage(live.menu, null)], ended: null }
}

/** When an ongoing conversation expires: 24 hours after the customer's last message. */
export const expiresAt = (c: Conversation): Millis => c.lastCustomerAt + silenceMillis

/**
 * One event of a customer's conversation. `phone` and `newId` serve a conversation the event starts. An ended
 * conversation takes no more events: a customer's next message starts a new one (pass none).
 */
export const step = (
  current: Conversation | null,
  event: Event,
  s: Situation,
  phone: string,
  newId: string,
): Step => {
  if (current === null || current.outcome !== "ongoing") {
    if (current !== null && event._tag !== "Inbound") return nothing(current)
    return event._tag === "Inbound" ? start(event, phone, newId, s) : nothing(null)
  }
  if (s.now >= expiresAt(current)) {
    const expired = end(current, "expired", expiresAt(current))
    if (event._tag !== "Inbound") return finished(expired)
    const next = start(event, phone, newId, s)
    return { ...next, ended: expired }
  }
  switch (event._tag) {
    case "Tick":
      return nothing(current)
    case "HumanReply":
      return finished(end(current, "human", s.now))
    case "SwitchedOff":
      return finished(end(current, "stopped", s.now))
    case "Inbound":
      return inbound(current, event, s)
  }
}

const inbound = (c: Conversation, e: Extract<Event, { _tag: "Inbound" }>, s: Situation): Step => {
  if (isStop(e)) return finished(end({ ...c, lastCustomerAt: s.now }, "stopped", s.now))
  const heard: Conversation = { ...c, lastCustomerAt: s.now, customerName: c.customerName ?? e.name ?? null }
  const tapped = e.choiceId === undefined
    ? undefined
    : levelChoices(s.menu, c.level).find((choice) => choice.id === e.choiceId)
  // Free text or a choice not on the level shown: the level again.
  if (tapped === undefined) return { conversation: heard, messages: [levelMessage(s.menu, c.level)], ended: null }
  const withTap: Conversation = {
    ...heard,
    choices: [...c.choices, { id: tapped.id, title: tapped.title, at: s.now }],
  }
  switch (tapped.action.type) {
    case "menu": {
      const next = { ...withTap, level: tapped.id }
      return { conversation: next, messages: [levelMessage(s.menu, tapped.id)], ended: null }
    }
    case "answer":
      return finished(end(withTap, "answered", s.now), [{ text: String(tapped.action.text), choices: [] }])
    case "team":
      return finished(end(withTap, "team", s.now), [handOverNotice(s.language, tapped.title)])
    default:
      return finished(end(withTap, "assistant", s.now))
  }
}

/** A message as plain text (the simulator's log): the text, then each choice on a line of its own. */
export const messageText = (m: OutMessage): string =>
  [m.text, ...m.choices.map((c) => `[${c.id}] ${c.title}`)].join("\n")
