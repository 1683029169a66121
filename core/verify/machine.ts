/**
 * The verification state machine (spec Section 3, DECISIONS 3) as a pure function of
 * (verification, command, now): the next verification, the events to emit, and the outcome.
 */
import { NotCancelable, NotResendable, ResendLimitReached } from "../errors.ts"
import { VerifyLimits } from "../limits.ts"
import type { Millis } from "../shared/brands.ts"
import { terminalStatuses, type Verification } from "./model.ts"

export type VerificationEvent = "verification.verified" | "verification.failed" | "verification.expired"

export type Command =
  | { readonly _tag: "Check"; readonly matches: boolean }
  | { readonly _tag: "Read" }
  | { readonly _tag: "Cancel" }
  | { readonly _tag: "Sweep" }
  | { readonly _tag: "Resend"; readonly codeHash: string; readonly lifetimeMs: number }

export type Refusal = NotResendable | NotCancelable | ResendLimitReached

/** The refusals a command may meet: only a resend and a cancel are ever refused. */
export type RefusalOf<C extends Command> = C extends { readonly _tag: "Resend" } ? NotResendable | ResendLimitReached
  : C extends { readonly _tag: "Cancel" } ? NotCancelable
  : never

export interface Decision<F extends Refusal = Refusal> {
  readonly next: Verification
  readonly events: ReadonlyArray<VerificationEvent>
  /** Set when the command is refused; `next` and `events` still hold (expiry found by the command). */
  readonly refusal?: F
}

const isTerminal = (v: Verification) => terminalStatuses.has(v.status)

export const hasExpired = (v: Verification, now: Millis) => v.status === "pending" && now >= v.expiresAt

const same = (v: Verification): Decision => ({ next: v, events: [] })

const expire = (v: Verification, now: Millis): Decision => ({
  next: { ...v, status: "expired", updatedAt: now },
  events: ["verification.expired"],
})

const check = (v: Verification, matches: boolean, now: Millis): Decision => {
  if (matches) {
    return {
      next: { ...v, status: "verified", attempts: v.attempts + 1, verifiedAt: now, updatedAt: now },
      events: ["verification.verified"],
    }
  }
  const attempts = v.attempts + 1
  if (attempts >= v.maxAttempts) {
    return { next: { ...v, status: "failed", attempts, updatedAt: now }, events: ["verification.failed"] }
  }
  return same({ ...v, attempts, updatedAt: now })
}

/** The decision on one command; its refusal, if any, is one that command may meet (`RefusalOf`). */
export const decide: <C extends Command>(v: Verification, command: C, now: Millis) => Decision<RefusalOf<C>> = ((
  v: Verification,
  command: Command,
  now: Millis,
): Decision => {
  if (isTerminal(v)) {
    switch (command._tag) {
      case "Resend":
        return { ...same(v), refusal: new NotResendable({ status: v.status }) }
      case "Cancel":
        return { ...same(v), refusal: new NotCancelable({ status: v.status }) }
      default:
        return same(v)
    }
  }
  if (hasExpired(v, now)) {
    const expired = expire(v, now)
    switch (command._tag) {
      case "Resend":
        return { ...expired, refusal: new NotResendable({ status: "expired" }) }
      case "Cancel":
        return { ...expired, refusal: new NotCancelable({ status: "expired" }) }
      default:
        return expired
    }
  }
  switch (command._tag) {
    case "Check":
      return check(v, command.matches, now)
    case "Read":
    case "Sweep":
      return same(v)
    case "Cancel":
      return same({ ...v, status: "canceled", updatedAt: now })
    case "Resend":
      if (v.resends >= VerifyLimits.resends) return { ...same(v), refusal: new ResendLimitReached({}) }
      return same({
        ...v,
        resends: v.resends + 1,
        codeHash: command.codeHash,
        expiresAt: now + command.lifetimeMs,
        updatedAt: now,
      })
  }
}) as <C extends Command>(v: Verification, command: C, now: Millis) => Decision<RefusalOf<C>>
