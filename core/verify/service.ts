/**
 * Verify's use cases: each loads, decides with the state machine, and persists the decision: a send as one
 * statement (gates, charge, record), a check, cancel or expiring read as one compare-and-set statement.
 */
import { Clock, Effect, Metric, Option } from "effect"
import type { OutboxEvent } from "../../ports/store/outbox.ts"
import { SmsGateway } from "../../ports/sms.ts"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import {
  type GuardStats,
  type SendAttempt,
  VerificationsRepo,
  VerifySendsRepo,
  VerifySettingsRepo,
} from "../../ports/store/verify.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Application } from "../accounts/model.ts"
import { notFound, SendFailed } from "../errors.ts"
import { VerifyLimits } from "../limits.ts"
import type { KeyPrincipal } from "../pipeline/authenticate.ts"
import type { EventId, Millis, VerificationId } from "../shared/brands.ts"
import { halalas, isUuid } from "../shared/brands.ts"
import { riyadhDayStart } from "../shared/riyadh.ts"
import { isSandboxMode } from "../shared/key-mode.ts"
import type { Charged } from "../../ports/store/wallet.ts"
import {
  afterCharge,
  afterChargeDue,
  chargeEntry,
  type ChargeRequest,
  countCharge,
  insufficientCredits,
  refund,
} from "../wallet/charge.ts"
import { guardSlot, guardWouldTrip, tripGuard, verifiedCredit } from "./guard.ts"
import { type Command, decide, type Decision, hasExpired, type VerificationEvent } from "./machine.ts"
import type { Verification, VerifySend, VerifySettings } from "./model.ts"
import type { CheckInput, StartInput } from "./requests.ts"
import { judgeSend, sandboxGates, sendAttempt, sendPrice, type Unaffordable } from "./send-rules.ts"
import { defaultSettings } from "./settings.ts"
import { verificationJson } from "./wire.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { Metrics } from "../shared/metrics.ts"
import { twoGenerations } from "../shared/memo.ts"

/** The SMS text: the code is its one standalone run of digits; sandbox texts begin with `[TEST]`. */
export const smsText = (code: string, sandbox: boolean) =>
  `${sandbox ? "[TEST] " : ""}Your verification code is ${code}`

export const SweepJob = "verify.sweep"

export class Verify extends Effect.Service<Verify>()("core/Verify", {
  effect: Effect.gen(function* () {
    const tx = yield* Transactor
    const apps = yield* ApplicationsRepo
    const verifications = yield* VerificationsRepo
    const sends = yield* VerifySendsRepo
    const settingsRepo = yield* VerifySettingsRepo
    const secrets = yield* Secrets
    const sms = yield* SmsGateway
    /** The platform's clock, held for the hot read (the other use cases read `Clock` as they run). */
    const clock = yield* Effect.clock

    const settingsOf = (application: Application) =>
      settingsRepo.get(application.id).pipe(Effect.map(Option.getOrElse(() => defaultSettings)))

    const codeHash = (id: string, code: string) => secrets.hash(`verify:${id}:${code}`)

    const eventsOf = (
      v: Verification,
      names: ReadonlyArray<VerificationEvent>,
      externalId: string | null,
      now: Millis,
    ) =>
      names.length === 0
        ? Effect.succeed<ReadonlyArray<OutboxEvent>>([])
        : Effect.forEach(names, (event) =>
          Effect.map(secrets.uuid, (id): OutboxEvent => ({
            id: id as EventId,
            event,
            data: verificationJson(v),
            applicationId: v.applicationId,
            accountId: v.accountId,
            externalId,
            createdAt: now,
          })))

    /**
     * Persists a decision taken on `before`: the new state and its events in one statement, only if the row
     * still holds `before` (false: another request moved it first). A decision that changes nothing writes nothing.
     */
    const persist = (application: Application | null, before: Verification, d: Decision, now: Millis) =>
      d.next === before && d.events.length === 0 ? Effect.succeed(true) : Effect.flatMap(
        // An application gone (the sweep may find its codes) adds no external id and credits no guard.
        eventsOf(d.next, d.events, application?.externalId ?? null, now),
        (events) =>
          verifications.transition(
            before,
            d.next,
            events,
            application !== null && d.next.status === "verified" && before.status !== "verified"
              ? verifiedCredit(application, d.next)
              : null,
          ),
      )

    /**
     * A verification the caller's key sees: its application's, and of the key's kind (DECISIONS 18: a live or
     * partner key sees live ones, a test or partner test key sandbox ones). Judged on the one read made anyway.
     */
    const sees = (p: KeyPrincipal, found: Option.Option<Verification>): found is Option.Some<Verification> =>
      Option.isSome(found) && found.value.applicationId === p.application.id &&
      isSandboxMode(found.value.mode) === isSandboxMode(p.mode)

    /** Loads a verification the caller sees (`sees`); any other is `not_found`, as an unknown id. */
    const loadOwn = (p: KeyPrincipal, id: string, lock: boolean) =>
      Effect.gen(function* () {
        if (!isUuid(id)) return yield* notFound
        const found = yield* (lock ? verifications.getForUpdate : verifications.get)(id as VerificationId)
        if (!sees(p, found)) return yield* notFound
        return found.value
      })

    /**
     * Applies one command without a transaction: read, decide, then a compare-and-set of the decision
     * (check, cancel, a read that finds expiry). When another request moved the verification in between,
     * it decides again on what that request left. A refusal is answered once the decision is stored.
     */
    const apply = <C extends Command>(p: KeyPrincipal, id: string, command: (v: Verification) => C) =>
      Effect.gen(function* () {
        for (let attempt = 0;; attempt++) {
          const v = yield* loadOwn(p, id, false)
          const now = yield* Clock.currentTimeMillis
          const d = decide(v, command(v), now)
          if (yield* persist(p.application, v, d, now)) {
            if (d.refusal) return yield* Effect.fail(d.refusal)
            if (d.next.status === "verified" && v.status !== "verified") {
              yield* Metric.increment(Metrics.verificationsVerified)
            }
            return verificationJson(d.next)
          }
          // Each lost race means another request moved the verification on; it has few states to pass through.
          if (attempt === 100) return yield* Effect.dieMessage(`Verify: verification ${id} keeps moving`)
        }
      })

    const chargeOf = (p: KeyPrincipal, price: number, reference: string, at: Millis): ChargeRequest => ({
      account: p.account,
      priceHalalas: price,
      product: "verify",
      reference,
      at,
    })

    /**
     * The saved settings each application's sends were last prepared with: a hint (the send's statement checks
     * it and answers the saved ones when they changed), so a send needs no read of its own. 10,000 applications
     * per generation: a tuning constant, not a limit.
     */
    const settingsHint = twoGenerations<Option.Option<VerifySettings>>(10_000)

    /**
     * Steps 5 and 6 of a send prepared on `saved` (the application's saved settings as last seen): judged and
     * recorded in one statement (`VerifySendsRepo.send`), then the refusals in the pinned order. Answers
     * `Stale` (nothing written; the hint now holds the saved settings) when they changed meanwhile: the caller
     * prepares the send again.
     */
    const admit = (
      p: KeyPrincipal,
      saved: Option.Option<VerifySettings>,
      settings: VerifySettings,
      verification: SendAttempt["verification"],
      send: VerifySend,
    ) => {
      const priced = send.priceHalalas > 0
      const request = priced ? chargeOf(p, send.priceHalalas, send.verificationId, send.sentAt) : null
      type Admitted =
        | { readonly _tag: "Stale" }
        | Unaffordable
        | {
          readonly _tag: "Sent"
          readonly guard: GuardStats | null
          readonly balanceAfter: Charged | null
          readonly state: Pick<Application, "paused" | "unpausedAt">
        }
      return Effect.flatMap(
        sends.send(sendAttempt(send, verification, saved, settings, request === null ? null : chargeEntry(request))),
        (outcome): Effect.Effect<Admitted, Effect.Effect.Error<ReturnType<typeof judgeSend>>> => {
          if (outcome._tag === "Stale") {
            settingsHint.set(send.applicationId, outcome.settings)
            return Effect.succeed({ _tag: "Stale" })
          }
          return Effect.map(judgeSend(outcome, settings), (judged): Admitted =>
            "_tag" in judged ? judged : {
              _tag: "Sent",
              guard: judged.guard,
              balanceAfter: judged.charged,
              // Judged as it is now: the guard may have paused it (or an unpause begun a new epoch) since.
              state: { paused: outcome.paused, unpausedAt: outcome.unpausedAt },
            })
        },
      )
    }

    /** The settings a send is prepared on: the hint's (none: the application saved none, the defaults apply). */
    const preparedOn = (application: Application) => {
      const saved = settingsHint.get(application.id) ?? Option.none()
      return { saved, settings: Option.getOrElse(saved, () => defaultSettings) }
    }

    /** A send prepared again this often on settings that keep changing is a defect. */
    const staleAttempts = 100

    /** Takes back a send the network refused: counted toward no cap, spend or guard, and refunded. */
    const withdraw = (p: KeyPrincipal, application: Application, send: VerifySend) =>
      Effect.gen(function* () {
        // The rows in a start's order (see VerifySendsRepo.release): no start and this wait on each other.
        yield* sends.release(send)
        if (send.priceHalalas > 0) {
          yield* refund(chargeOf(p, send.priceHalalas, send.verificationId, yield* Clock.currentTimeMillis))
        }
        yield* sends.uncount(send, {
          dayStart: riyadhDayStart(send.sentAt) as Millis,
          guard: guardSlot(application, send.sentAt),
        })
      })

    /**
     * What follows a send the network accepted: the protection guard, `balance.low` and the auto top-up. A
     * refused send is rolled back as if never attempted, so it must neither pause the application, fire an
     * alert nor top up. The guard's count came back with the send's record: only a count that trips it
     * takes the application's lock (and reads the count again under it).
     */
    const afterSend = (
      p: KeyPrincipal,
      application: Application,
      settings: VerifySettings,
      send: VerifySend,
      guard: GuardStats | null,
      balanceAfter: Charged | null,
    ) => {
      const request = chargeOf(p, send.priceHalalas, send.verificationId, send.sentAt)
      const due = balanceAfter !== null && afterChargeDue(request, balanceAfter)
      const pause = guardWouldTrip(application, settings, guard)
        ? tx.withTransaction(
          Effect.flatMap(
            apps.getForUpdate(application.id),
            (app) => tripGuard(Option.getOrElse(app, () => application), settings, send.sentAt),
          ),
        )
        : Effect.void
      const done = due ? Effect.zipRight(pause, Effect.asVoid(afterCharge(request, balanceAfter!))) : pause
      return balanceAfter === null ? done : Effect.zipRight(countCharge(request), done)
    }

    const sendOf = (v: Verification, price: number, at: Millis): VerifySend => ({
      verificationId: v.id,
      applicationId: v.applicationId,
      to: v.to,
      clientIp: v.clientIp,
      priceHalalas: halalas(price),
      sentAt: at,
    })

    const start = Effect.fn("Verify.start", untracedStacks)(function* (p: KeyPrincipal, input: StartInput) {
      const id = (yield* secrets.uuid) as VerificationId
      const price = sendPrice(p.mode)
      const sandbox = isSandboxMode(p.mode)
      for (let attempt = 0; attempt < staleAttempts; attempt++) {
        const { saved, settings } = preparedOn(p.application)
        const code = yield* secrets.randomDigits(settings.code_length)
        const now = yield* Clock.currentTimeMillis
        const v: Verification = {
          id,
          applicationId: p.application.id,
          accountId: p.application.accountId,
          to: input.to,
          channel: "sms",
          reference: input.reference,
          clientIp: input.clientIp,
          mode: p.mode,
          status: "pending",
          attempts: 0,
          maxAttempts: settings.max_attempts,
          resends: 0,
          codeHash: codeHash(id, code),
          expiresAt: now + settings.code_lifetime_minutes * 60_000,
          verifiedAt: null,
          createdAt: now,
          updatedAt: now,
        }
        const send = sendOf(v, price, now)
        const sent = yield* (sandbox
          ? tx.withTransaction(Effect.gen(function* () {
            // The lifetime quota is counted under the application's lock (sandbox starts only).
            const locked = Option.getOrElse(yield* apps.getForUpdate(p.application.id), () => p.application)
            yield* sandboxGates(locked, input.to)
            return yield* admit(p, saved, settings, { _tag: "Insert", value: v }, send)
          }))
          : admit(p, saved, settings, { _tag: "Insert", value: v }, send))
        if (sent._tag === "Stale") continue
        // A priced start runs in no transaction (a sandbox one, in one, is free): the balance is read at once.
        if (sent._tag === "Unaffordable") return yield* insufficientCredits(chargeOf(p, price, id, now))
        const application: Application = { ...p.application, ...sent.state }
        yield* sms.send({ to: v.to, text: smsText(code, sandbox) }).pipe(
          Effect.catchTag("SmsRefused", (refused) =>
            Effect.zipRight(
              // Rolled back as if never attempted: refunded, counted toward no cap, nothing left to check.
              tx.withTransaction(Effect.zipRight(verifications.delete(id), withdraw(p, application, send))),
              new SendFailed({ provider_code: refused.providerCode, message: refused.message }),
            )),
        )
        yield* afterSend(p, application, settings, send, sent.guard, sent.balanceAfter)
        yield* Metric.increment(Metrics.verificationsStarted)
        return verificationJson(v)
      }
      return yield* Effect.dieMessage(`Verify: the settings of application ${p.application.id} keep changing`)
    })

    const resend = Effect.fn("Verify.resend", untracedStacks)(function* (p: KeyPrincipal, id: string) {
      const price = sendPrice(p.mode)
      for (let attempt = 0; attempt < staleAttempts; attempt++) {
        const { saved, settings } = preparedOn(p.application)
        const code = yield* secrets.randomDigits(settings.code_length)
        const outcome = yield* tx.withTransaction(Effect.gen(function* () {
          const before = yield* loadOwn(p, id, true)
          const now = yield* Clock.currentTimeMillis
          const d = decide(before, {
            _tag: "Resend",
            codeHash: codeHash(before.id, code),
            lifetimeMs: settings.code_lifetime_minutes * 60_000,
          }, now)
          if (d.refusal) {
            yield* persist(p.application, before, d, now)
            return { _tag: "Refused" as const, refusal: d.refusal }
          }
          const send = sendOf(d.next, price, now)
          const sent = yield* admit(p, saved, settings, { _tag: "Update", value: d.next }, send)
          // Unaffordable fails the transaction: a send that lost the wallet's race left it aborted (send-rules.ts).
          if (sent._tag === "Unaffordable") return yield* Effect.fail(sent)
          return sent._tag === "Stale" ? sent : { ...sent, before, next: d.next, send }
        })).pipe(
          // The balance the refusal reports, read once the transaction rolled back.
          Effect.catchTag("Unaffordable", () =>
            Effect.flatMap(
              Clock.currentTimeMillis,
              (at) => insufficientCredits(chargeOf(p, price, id, at as Millis)),
            )),
        )
        if (outcome._tag === "Stale") continue
        if (outcome._tag === "Refused") return yield* outcome.refusal
        const { before, next, send } = outcome
        const application: Application = { ...p.application, ...outcome.state }
        yield* sms.send({ to: next.to, text: smsText(code, isSandboxMode(p.mode)) }).pipe(
          Effect.catchTag("SmsRefused", (refused) =>
            Effect.zipRight(
              tx.withTransaction(Effect.gen(function* () {
                const current = yield* verifications.getForUpdate(next.id)
                if (Option.isSome(current) && current.value.codeHash === next.codeHash) {
                  yield* verifications.update({
                    ...current.value,
                    resends: before.resends,
                    codeHash: before.codeHash,
                    expiresAt: before.expiresAt,
                  })
                }
                yield* withdraw(p, application, send)
              })),
              new SendFailed({ provider_code: refused.providerCode, message: refused.message }),
            )),
        )
        yield* afterSend(p, application, settings, send, outcome.guard, outcome.balanceAfter)
        return verificationJson(next)
      }
      return yield* Effect.dieMessage(`Verify: the settings of application ${p.application.id} keep changing`)
    })

    const check = Effect.fn("Verify.check", untracedStacks)((p: KeyPrincipal, input: CheckInput) => {
      // The code's hash depends only on the id and the code: computed once, compared with each read.
      const hash = isUuid(input.id) ? codeHash(input.id, input.code) : ""
      return apply(p, input.id, (v) => ({
        _tag: "Check",
        matches: secrets.equal(hash, v.codeHash) && v.status === "pending",
      }))
    })

    /**
     * The hot read: plain combinators, no span (a span costs more than the read; bench/dispatch.ts).
     * A code found past `expires_at` is expired at once, in a transaction, as check and cancel do.
     */
    const read = (p: KeyPrincipal, id: string) => {
      if (!isUuid(id)) return Effect.fail(notFound)
      return Effect.flatMap(verifications.get(id as VerificationId), (found) => {
        if (!sees(p, found)) return Effect.fail(notFound)
        const v = found.value
        return hasExpired(v, clock.unsafeCurrentTimeMillis())
          ? apply(p, id, () => ({ _tag: "Read" }))
          : Effect.succeed(verificationJson(v))
      })
    }

    const cancel = Effect.fn("Verify.cancel", untracedStacks)((p: KeyPrincipal, id: string) =>
      apply(p, id, () => ({ _tag: "Cancel" }))
    )

    /**
     * The periodic sweep: every 10 minutes on the platform clock, one process wins the run and expires
     * codes at least 5 minutes past `expires_at`. Answers how many it expired.
     */
    const sweep = Effect.fn("Verify.sweep", untracedStacks)(
      function* (claim: (name: string, now: Millis, next: Millis) => Effect.Effect<boolean>) {
        const now = yield* Clock.currentTimeMillis
        if (!(yield* claim(SweepJob, now, now + VerifyLimits.sweepIntervalMs))) return 0
        const applications = new Map<string, Application | null>()
        const applicationOf = (v: Verification) =>
          applications.has(v.applicationId)
            ? Effect.succeed(applications.get(v.applicationId) ?? null)
            : Effect.map(apps.get(v.applicationId), (a) => {
              const found = Option.getOrNull(a)
              applications.set(v.applicationId, found)
              return found
            })
        const batch = 200
        let total = 0
        for (;;) {
          const n = yield* tx.withTransaction(Effect.gen(function* () {
            const due = yield* verifications.lockExpirable(now - VerifyLimits.sweepGraceMs, batch)
            for (const v of due) {
              const application = yield* applicationOf(v)
              const d = decide(v, { _tag: "Sweep" }, now)
              // The row is locked: the compare-and-set holds. An application gone leaves no external id to add.
              yield* persist(application, v, d, now)
            }
            return due.length
          }))
          total += n
          if (n < batch) return total
        }
      },
    )

    return { start, check, read, resend, cancel, sweep, settingsOf } as const
  }),
}) {}

export type { VerifySettings }
