/** Verify's use cases: each loads, decides with the state machine, and persists state and events in one transaction. */
import { Clock, Effect, Either, Option } from "effect"
import { SmsGateway } from "../../ports/sms.ts"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { OutboxRepo } from "../../ports/store/outbox.ts"
import { Transactor } from "../../ports/store/transactor.ts"
import { VerificationsRepo, VerifySendsRepo, VerifySettingsRepo } from "../../ports/store/verify.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { Application } from "../accounts/model.ts"
import { notFound, SendFailed } from "../errors.ts"
import { Prices, VerifyLimits } from "../limits.ts"
import type { KeyPrincipal } from "../pipeline/authenticate.ts"
import type { EventId, Millis, VerificationId } from "../shared/brands.ts"
import { halalas, isUuid } from "../shared/brands.ts"
import { isSandboxMode } from "../shared/key-mode.ts"
import type { Charged } from "../../ports/store/wallet.ts"
import { afterCharge, afterChargeDue, charge, type ChargeRequest, refund } from "../wallet/charge.ts"
import { tripGuard } from "./guard.ts"
import { decide, type Decision, hasExpired, type VerificationEvent } from "./machine.ts"
import type { Verification, VerifySettings } from "./model.ts"
import type { CheckInput, StartInput } from "./requests.ts"
import { sandboxGates, type SendContext, sendGates } from "./gates.ts"
import { defaultSettings } from "./settings.ts"
import { verificationJson } from "./wire.ts"
import { untracedStacks } from "../shared/tracing.ts"

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
    const outbox = yield* OutboxRepo
    const secrets = yield* Secrets
    const sms = yield* SmsGateway
    /** The platform's clock, held for the hot read (the other use cases read `Clock` as they run). */
    const clock = yield* Effect.clock

    const settingsOf = (application: Application) =>
      settingsRepo.get(application.id).pipe(Effect.map(Option.getOrElse(() => defaultSettings)))

    const codeHash = (id: string, code: string) => secrets.hash(`verify:${id}:${code}`)

    const emit = (v: Verification, names: ReadonlyArray<VerificationEvent>, externalId: string | null, now: Millis) =>
      names.length === 0 ? Effect.void : Effect.flatMap(
        Effect.forEach(names, (event) =>
          Effect.map(secrets.uuid, (id) => ({
            id: id as EventId,
            event,
            data: verificationJson(v),
            applicationId: v.applicationId,
            accountId: v.accountId,
            externalId,
            createdAt: now,
          }))),
        outbox.append,
      )

    /** Persists a decision: the new state and its events, in the caller's transaction. */
    const persist = (before: Verification, d: Decision, externalId: string | null, now: Millis) =>
      Effect.gen(function* () {
        if (d.next !== before) yield* verifications.update(d.next)
        yield* emit(d.next, d.events, externalId, now)
      })

    /** Loads a verification of the caller's application, locked; another application's is `not_found`. */
    const lockOwn = (p: KeyPrincipal, id: string) =>
      Effect.gen(function* () {
        if (!isUuid(id)) return yield* notFound
        const found = yield* verifications.getForUpdate(id as VerificationId)
        if (Option.isNone(found) || found.value.applicationId !== p.application.id) return yield* notFound
        return found.value
      })

    /** Applies one command in a transaction; a refusal is answered after the transaction commits. */
    const run = (p: KeyPrincipal, id: string, command: Parameters<typeof decide>[1]) =>
      Effect.gen(function* () {
        const d = yield* tx.withTransaction(Effect.gen(function* () {
          const v = yield* lockOwn(p, id)
          const now = yield* Clock.currentTimeMillis
          const d = decide(v, command, now)
          yield* persist(v, d, p.application.externalId, now)
          return d
        }))
        if (d.refusal) return yield* d.refusal
        return verificationJson(d.next)
      })

    const chargeOf = (p: KeyPrincipal, price: number, reference: string, at: Millis): ChargeRequest => ({
      account: p.account,
      priceHalalas: price,
      product: "verify",
      reference,
      at,
    })

    /** Steps 5 and 6, inside the caller's transaction; answers the charge (the balance after it; null: free). */
    const admitSend = (p: KeyPrincipal, ctx: SendContext, verificationId: VerificationId, sandboxStart: boolean) =>
      Effect.gen(function* () {
        if (sandboxStart) yield* sandboxGates(ctx)
        yield* sendGates(ctx)
        return ctx.priceHalalas > 0 ? yield* charge(chargeOf(p, ctx.priceHalalas, verificationId, ctx.now)) : null
      })

    const recordSend = (ctx: SendContext, verificationId: VerificationId) =>
      sends.insert({
        verificationId,
        applicationId: ctx.application.id,
        to: ctx.to,
        clientIp: ctx.clientIp,
        priceHalalas: halalas(ctx.priceHalalas),
        sentAt: ctx.now,
      })

    const lockApplication = (p: KeyPrincipal) =>
      Effect.map(apps.getForUpdate(p.application.id), Option.getOrElse(() => p.application))

    /** What the gates judge a send by, with the application locked for the transaction. */
    const lockForSend = (
      p: KeyPrincipal,
      send: Pick<SendContext, "to" | "clientIp" | "priceHalalas" | "settings" | "now">,
    ): Effect.Effect<SendContext> => Effect.map(lockApplication(p), (application) => ({ application, ...send }))

    /**
     * What follows a send the network accepted: the protection guard, `balance.low` and the auto top-up. A
     * refused send is rolled back as if never attempted, so it must neither pause the application, fire an
     * alert nor top up.
     */
    const afterSend = (
      p: KeyPrincipal,
      ctx: SendContext,
      verificationId: VerificationId,
      balanceAfter: Charged | null,
    ) => {
      const request = chargeOf(p, ctx.priceHalalas, verificationId, ctx.now)
      const due = balanceAfter !== null && afterChargeDue(request, balanceAfter)
      // Most sends have nothing to do here: skip the transaction then (it is on the hot path).
      const guard = ctx.settings.guard.enabled
        ? tx.withTransaction(Effect.flatMap(lockApplication(p), (app) => tripGuard(app, ctx.settings, ctx.now)))
        : Effect.void
      return due ? Effect.zipRight(guard, Effect.asVoid(afterCharge(request, balanceAfter!))) : guard
    }

    const priceFor = (p: KeyPrincipal) => (isSandboxMode(p.mode) ? 0 : Prices.verifySmsHalalas)

    const start = Effect.fn("Verify.start", untracedStacks)(function* (p: KeyPrincipal, input: StartInput) {
      const settings = yield* settingsOf(p.application)
      const id = (yield* secrets.uuid) as VerificationId
      const code = yield* secrets.randomDigits(settings.code_length)
      const price = priceFor(p)
      const sandbox = isSandboxMode(p.mode)
      const { balanceAfter, ctx, v } = yield* tx.withTransaction(Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const ctx = yield* lockForSend(p, {
          to: input.to,
          clientIp: input.clientIp,
          priceHalalas: price,
          settings,
          now,
        })
        const balanceAfter = yield* admitSend(p, ctx, id, sandbox)
        const v: Verification = {
          id,
          applicationId: ctx.application.id,
          accountId: ctx.application.accountId,
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
        yield* verifications.insert(v)
        yield* recordSend(ctx, id)
        return { balanceAfter, ctx, v }
      }))
      yield* sms.send({ to: v.to, text: smsText(code, sandbox) }).pipe(
        Effect.catchTag("SmsRefused", (refused) =>
          Effect.zipRight(
            // Rolled back as if never attempted: refunded, counted toward no cap, nothing left to check.
            tx.withTransaction(Effect.gen(function* () {
              yield* verifications.delete(id)
              yield* sends.delete(id, ctx.now)
              if (price > 0) yield* refund(chargeOf(p, price, id, yield* Clock.currentTimeMillis))
            })),
            new SendFailed({ provider_code: refused.providerCode, message: refused.message }),
          )),
      )
      yield* afterSend(p, ctx, id, balanceAfter)
      return verificationJson(v)
    })

    const resend = Effect.fn("Verify.resend", untracedStacks)(function* (p: KeyPrincipal, id: string) {
      const settings = yield* settingsOf(p.application)
      const code = yield* secrets.randomDigits(settings.code_length)
      const price = priceFor(p)
      const outcome = yield* tx.withTransaction(Effect.gen(function* () {
        const before = yield* lockOwn(p, id)
        const now = yield* Clock.currentTimeMillis
        const d = decide(before, {
          _tag: "Resend",
          codeHash: codeHash(before.id, code),
          lifetimeMs: settings.code_lifetime_minutes * 60_000,
        }, now)
        if (d.refusal) {
          yield* persist(before, d, p.application.externalId, now)
          return Either.left(d.refusal)
        }
        const ctx = yield* lockForSend(p, {
          to: before.to,
          clientIp: before.clientIp,
          priceHalalas: price,
          settings,
          now,
        })
        const balanceAfter = yield* admitSend(p, ctx, before.id, false)
        yield* verifications.update(d.next)
        yield* recordSend(ctx, before.id)
        return Either.right({ balanceAfter, before, next: d.next, ctx })
      }))
      if (Either.isLeft(outcome)) return yield* outcome.left
      const { balanceAfter, before, ctx, next } = outcome.right
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
              yield* sends.delete(next.id, ctx.now)
              if (price > 0) yield* refund(chargeOf(p, price, next.id, yield* Clock.currentTimeMillis))
            })),
            new SendFailed({ provider_code: refused.providerCode, message: refused.message }),
          )),
      )
      yield* afterSend(p, ctx, next.id, balanceAfter)
      return verificationJson(next)
    })

    const check = Effect.fn("Verify.check", untracedStacks)(function* (p: KeyPrincipal, input: CheckInput) {
      return yield* tx.withTransaction(Effect.gen(function* () {
        const v = yield* lockOwn(p, input.id)
        const now = yield* Clock.currentTimeMillis
        const matches = secrets.equal(codeHash(v.id, input.code), v.codeHash) && v.status === "pending"
        const d = decide(v, { _tag: "Check", matches }, now)
        yield* persist(v, d, p.application.externalId, now)
        return verificationJson(d.next)
      }))
    })

    /**
     * The hot read: plain combinators, no span (a span costs more than the read; bench/dispatch.ts).
     * A code found past `expires_at` is expired at once, in a transaction, as check and cancel do.
     */
    const read = (p: KeyPrincipal, id: string) => {
      if (!isUuid(id)) return Effect.fail(notFound)
      return Effect.flatMap(verifications.get(id as VerificationId), (found) => {
        if (Option.isNone(found) || found.value.applicationId !== p.application.id) return Effect.fail(notFound)
        const v = found.value
        return hasExpired(v, clock.unsafeCurrentTimeMillis())
          ? run(p, id, { _tag: "Read" })
          : Effect.succeed(verificationJson(v))
      })
    }

    const cancel = Effect.fn("Verify.cancel", untracedStacks)((p: KeyPrincipal, id: string) =>
      run(p, id, { _tag: "Cancel" })
    )

    /**
     * The periodic sweep: every 10 minutes on the platform clock, one process wins the run and expires
     * codes at least 5 minutes past `expires_at`. Answers how many it expired.
     */
    const sweep = Effect.fn("Verify.sweep", untracedStacks)(
      function* (claim: (name: string, now: Millis, next: Millis) => Effect.Effect<boolean>) {
        const now = yield* Clock.currentTimeMillis
        if (!(yield* claim(SweepJob, now, now + VerifyLimits.sweepIntervalMs))) return 0
        const externalIds = new Map<string, string | null>()
        const externalIdOf = (v: Verification) =>
          externalIds.has(v.applicationId)
            ? Effect.succeed(externalIds.get(v.applicationId) ?? null)
            : Effect.map(apps.get(v.applicationId), (a) => {
              const e = Option.match(a, { onNone: () => null, onSome: (x) => x.externalId })
              externalIds.set(v.applicationId, e)
              return e
            })
        const batch = 200
        let total = 0
        for (;;) {
          const n = yield* tx.withTransaction(Effect.gen(function* () {
            const due = yield* verifications.lockExpirable(now - VerifyLimits.sweepGraceMs, batch)
            for (const v of due) yield* persist(v, decide(v, { _tag: "Sweep" }, now), yield* externalIdOf(v), now)
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
