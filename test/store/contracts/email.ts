/**
 * Email's store contract: account access, the switch, sender domains (checks only while pending, the due list,
 * restarts, who holds a domain verified) and the message log (finish and complain once, the list's order, cursor
 * and filters). Tests share one database: every id and domain is fresh, and only the due test uses times below 1e12.
 */
import { assert, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { DomainRecord, EmailMessage, ListStatus, SenderDomain } from "../../../core/email/model.ts"
import type { AccountId, ApplicationId } from "../../../core/shared/brands.ts"
import {
  EmailAccessRepo,
  type EmailListQuery,
  EmailMessagesRepo,
  EmailSwitchRepo,
  SenderDomainsRepo,
} from "../../../ports/store/email.ts"
import { Transactor } from "../../../ports/store/transactor.ts"
import type { AnyProduct } from "../../../adapters/product.ts"
import { products } from "../../../adapters/products.ts"
import { isDefect, uuid } from "../fixtures.ts"

type EmailStore = EmailAccessRepo | EmailSwitchRepo | SenderDomainsRepo | EmailMessagesRepo | Transactor
/** The store's `it`, of every product's repositories once Email's are wired (adapters/modules/email.ts). */
export type EmailIt = Vitest.MethodsNonLive<EmailStore, true>

const t0 = 1_700_000_000_000

const records = (domain: string, verified = false): ReadonlyArray<DomainRecord> => [
  { purpose: "spf", type: "TXT", name: domain, value: "v=spf1 include:spf.mail.svc.sa ~all", verified },
  { purpose: "dkim", type: "TXT", name: `svc._domainkey.${domain}`, value: "v=DKIM1; k=rsa; p=MIIB", verified },
  { purpose: "return_path", type: "CNAME", name: `bounces.${domain}`, value: "bounces.mail.svc.sa", verified },
]

const freshDomain = () => `d${uuid().slice(0, 8)}.example.sa`

const senderDomain = (over: Partial<SenderDomain> = {}): SenderDomain => {
  const domain = over.domain ?? freshDomain()
  return {
    id: uuid(),
    applicationId: uuid() as ApplicationId,
    domain,
    status: "pending",
    records: records(domain),
    dkimPrivateKeySealed: `sealed:${uuid()}`,
    pendingUntil: t0 + 72 * 3_600_000,
    verifiedAt: null,
    checkedAt: t0,
    createdAt: t0,
    ...over,
  }
}

const message = (over: Partial<EmailMessage> = {}): EmailMessage => ({
  id: uuid(),
  applicationId: uuid() as ApplicationId,
  accountId: uuid() as AccountId,
  from: "orders@shop.example.sa",
  to: "customer@example.com",
  subject: "Your order",
  reference: null,
  status: "sent",
  complained: false,
  test: false,
  domainId: uuid(),
  domain: "shop.example.sa",
  providerMessageId: null,
  createdAt: t0,
  updatedAt: t0,
  ...over,
})

/** The store contract (contract.test.ts) runs this file by the product's name, `email`. */
export const contract = (it: EmailIt) => emailContract(it)

export const emailContract = (it: EmailIt) => {
  it.effect("email access: none until put, then the last put", () =>
    Effect.gen(function* () {
      const repo = yield* EmailAccessRepo
      const accountId = uuid() as AccountId
      assert.deepStrictEqual(yield* repo.get(accountId), {
        accountId,
        status: "none",
        requestedAt: null,
        decidedAt: null,
      })
      const pending = { accountId, status: "pending" as const, requestedAt: t0, decidedAt: null }
      yield* repo.put(pending)
      assert.deepStrictEqual(yield* repo.get(accountId), pending)
      const granted = { ...pending, status: "granted" as const, decidedAt: t0 + 1 }
      yield* repo.put(granted)
      assert.deepStrictEqual(yield* repo.get(accountId), granted)
      assert.strictEqual((yield* repo.get(uuid() as AccountId)).status, "none")
    }))

  it.effect("email switch: on by default, switched per application", () =>
    Effect.gen(function* () {
      const repo = yield* EmailSwitchRepo
      const app = uuid() as ApplicationId
      assert.isTrue(yield* repo.enabled(app))
      yield* repo.setEnabled(app, false)
      assert.isFalse(yield* repo.enabled(app))
      assert.isTrue(yield* repo.enabled(uuid() as ApplicationId))
      yield* repo.setEnabled(app, true)
      assert.isTrue(yield* repo.enabled(app))
    }))

  it.effect("sender domains: insert, get, the application's oldest first; one domain per application", () =>
    Effect.gen(function* () {
      const repo = yield* SenderDomainsRepo
      const app = uuid() as ApplicationId
      const b = senderDomain({ applicationId: app, createdAt: t0 + 2 })
      const a = senderDomain({ applicationId: app, createdAt: t0 + 1 })
      const other = senderDomain({ domain: a.domain })
      yield* Effect.forEach([b, a, other], repo.insert)
      assert.deepStrictEqual(yield* repo.list(app), [a, b])
      assert.deepStrictEqual(yield* repo.get(b.id), Option.some(b))
      assert.isTrue(Option.isNone(yield* repo.get(uuid())))
      assert.isTrue(Option.isNone(yield* repo.get("not-a-uuid")))
      assert.deepStrictEqual(yield* repo.list(uuid() as ApplicationId), [])
      assert.isTrue(isDefect(yield* Effect.exit(repo.insert(a))))
      assert.isTrue(isDefect(yield* Effect.exit(repo.insert(senderDomain({ applicationId: app, domain: a.domain })))))
    }))

  it.effect("sender domains: a check is stored only while the domain is pending", () =>
    Effect.gen(function* () {
      const repo = yield* SenderDomainsRepo
      const d = senderDomain()
      yield* repo.insert(d)
      const partly = d.records.map((r, i) => ({ ...r, verified: i === 0 }))
      assert.isTrue(
        yield* repo.recordCheck({ id: d.id, records: partly, status: "pending", verifiedAt: null, checkedAt: t0 + 10 }),
      )
      assert.deepStrictEqual(yield* repo.get(d.id), Option.some({ ...d, records: partly, checkedAt: t0 + 10 }))
      const all = records(d.domain, true)
      assert.isTrue(
        yield* repo.recordCheck({
          id: d.id,
          records: all,
          status: "verified",
          verifiedAt: t0 + 20,
          checkedAt: t0 + 20,
        }),
      )
      const verified = { ...d, records: all, status: "verified" as const, verifiedAt: t0 + 20, checkedAt: t0 + 20 }
      assert.deepStrictEqual(yield* repo.get(d.id), Option.some(verified))
      // A check racing the one that verified it finds it no longer pending.
      assert.isFalse(
        yield* repo.recordCheck({ id: d.id, records: partly, status: "failed", verifiedAt: null, checkedAt: t0 + 30 }),
      )
      assert.deepStrictEqual(yield* repo.get(d.id), Option.some(verified))
      assert.isFalse(
        yield* repo.recordCheck({ id: uuid(), records: all, status: "verified", verifiedAt: 1, checkedAt: 1 }),
      )
    }))

  it.effect("sender domains: a failed domain restarts pending; others are left alone", () =>
    Effect.gen(function* () {
      const repo = yield* SenderDomainsRepo
      const d = senderDomain()
      yield* repo.insert(d)
      assert.isTrue(
        yield* repo.recordCheck({
          id: d.id,
          records: d.records,
          status: "failed",
          verifiedAt: null,
          checkedAt: t0 + 5,
        }),
      )
      const until = t0 + 100 * 3_600_000
      yield* repo.restart(d.id, until, t0 + 50)
      assert.deepStrictEqual(
        yield* repo.get(d.id),
        Option.some({ ...d, status: "pending" as const, pendingUntil: until, checkedAt: t0 + 50 }),
      )
      // Pending again: checks are stored once more.
      assert.isTrue(
        yield* repo.recordCheck({
          id: d.id,
          records: d.records,
          status: "pending",
          verifiedAt: null,
          checkedAt: t0 + 60,
        }),
      )
      yield* repo.restart(d.id, until + 1, t0 + 70)
      assert.deepStrictEqual(
        Option.map(yield* repo.get(d.id), (x) => [x.pendingUntil, x.checkedAt]),
        Option.some([until, t0 + 60]),
      )
    }))

  it.effect("sender domains: verified elsewhere only when another application holds it verified", () =>
    Effect.gen(function* () {
      const repo = yield* SenderDomainsRepo
      const domain = freshDomain()
      const mine = senderDomain({ domain })
      const theirs = senderDomain({ domain })
      yield* Effect.forEach([mine, theirs], repo.insert)
      assert.isFalse(yield* repo.verifiedElsewhere(domain, mine.applicationId))
      const verify = (d: SenderDomain) =>
        repo.recordCheck({
          id: d.id,
          records: records(domain, true),
          status: "verified",
          verifiedAt: t0,
          checkedAt: t0,
        })
      yield* verify(mine)
      assert.isFalse(yield* repo.verifiedElsewhere(domain, mine.applicationId))
      assert.isTrue(yield* repo.verifiedElsewhere(domain, theirs.applicationId))
      assert.isTrue(yield* repo.verifiedElsewhere(domain, uuid() as ApplicationId))
      assert.isFalse(yield* repo.verifiedElsewhere(freshDomain(), uuid() as ApplicationId))
    }))

  it.effect("sender domains: due lists pending ones checked by then, the longest waiting first, limited", () =>
    Effect.gen(function* () {
      const repo = yield* SenderDomainsRepo
      // The only times below 1e12 in the store: no other test's domain is due this early.
      const [late, early, middle, tooLate] = [30, 10, 20, 40].map((checkedAt) => senderDomain({ checkedAt }))
      const settled = senderDomain({ checkedAt: 5 })
      yield* Effect.forEach([late, early, middle, tooLate, settled], repo.insert)
      yield* repo.recordCheck({
        id: settled.id,
        records: settled.records,
        status: "failed",
        verifiedAt: null,
        checkedAt: 5,
      })
      const ids = (ds: ReadonlyArray<SenderDomain>) => ds.map((d) => d.id)
      assert.deepStrictEqual(ids(yield* repo.due(30, 10)), ids([early, middle, late]))
      assert.deepStrictEqual(ids(yield* repo.due(30, 2)), ids([early, middle]))
      assert.deepStrictEqual(yield* repo.due(9, 10), [])
      assert.deepStrictEqual((yield* repo.due(10, 1))[0], early)
      assert.deepStrictEqual(yield* repo.earliestPending, Option.some(10))
      yield* Effect.forEach(
        [early, middle, late, tooLate],
        (d) => repo.recordCheck({ id: d.id, records: d.records, status: "failed", verifiedAt: null, checkedAt: 50 }),
      )
      assert.deepStrictEqual(yield* repo.due(1e12 - 1, 10), [])
      assert.isTrue(Option.getOrElse(yield* repo.earliestPending, () => Infinity) >= 1e12)
    }))

  it.effect("email messages: insert, get by application, find, provider id, remove; a rolled-back insert leaves nothing", () =>
    Effect.gen(function* () {
      const repo = yield* EmailMessagesRepo
      const tx = yield* Transactor
      const m = message({ reference: "order-1", test: true })
      yield* repo.insert(m)
      assert.deepStrictEqual(yield* repo.get(m.applicationId, m.id), Option.some(m))
      assert.isTrue(Option.isNone(yield* repo.get(uuid() as ApplicationId, m.id)))
      assert.deepStrictEqual(yield* repo.find(m.id), Option.some(m))
      yield* repo.setProviderId(m.id, "<abc@mail.svc.sa>")
      assert.deepStrictEqual(yield* repo.find(m.id), Option.some({ ...m, providerMessageId: "<abc@mail.svc.sa>" }))
      assert.isTrue(isDefect(yield* Effect.exit(repo.insert(m))))
      yield* repo.remove(m.id)
      assert.isTrue(Option.isNone(yield* repo.find(m.id)))
      const n = message()
      const rolledBack = yield* Effect.exit(tx.withTransaction(Effect.zipRight(repo.insert(n), Effect.fail("no"))))
      assert.isTrue(rolledBack._tag === "Failure")
      assert.isTrue(Option.isNone(yield* repo.find(n.id)))
    }))

  it.effect("email messages: finish moves `sent` to a final status once", () =>
    Effect.gen(function* () {
      const repo = yield* EmailMessagesRepo
      const m = message()
      yield* repo.insert(m)
      const delivered = { ...m, status: "delivered" as const, updatedAt: t0 + 10 }
      assert.deepStrictEqual(yield* repo.finish(m.id, "delivered", t0 + 10), Option.some(delivered))
      assert.isTrue(Option.isNone(yield* repo.finish(m.id, "bounced", t0 + 20)))
      assert.deepStrictEqual(yield* repo.find(m.id), Option.some(delivered))
      assert.isTrue(Option.isNone(yield* repo.finish(uuid(), "failed", t0)))
      assert.isTrue(Option.isNone(yield* repo.finish("not-a-uuid", "failed", t0)))
      assert.isTrue(Option.isNone(yield* repo.complain("not-a-uuid", t0)))
      assert.isTrue(Option.isNone(yield* repo.find("not-a-uuid")))
      assert.isTrue(Option.isNone(yield* repo.get(m.applicationId, "not-a-uuid")))
    }))

  it.effect("email messages: a complaint is marked once, whatever the status", () =>
    Effect.gen(function* () {
      const repo = yield* EmailMessagesRepo
      const m = message()
      yield* repo.insert(m)
      yield* repo.finish(m.id, "delivered", t0 + 10)
      const complained = { ...m, status: "delivered" as const, complained: true, updatedAt: t0 + 20 }
      assert.deepStrictEqual(yield* repo.complain(m.id, t0 + 20), Option.some(complained))
      assert.isTrue(Option.isNone(yield* repo.complain(m.id, t0 + 30)))
      assert.deepStrictEqual(yield* repo.find(m.id), Option.some(complained))
      assert.isTrue(Option.isNone(yield* repo.complain(uuid(), t0)))
    }))

  it.effect("email messages and domains: of many reports or checks racing, exactly one applies", () =>
    Effect.gen(function* () {
      const messages = yield* EmailMessagesRepo
      const domains = yield* SenderDomainsRepo
      const m = message()
      const d = senderDomain()
      yield* messages.insert(m)
      yield* domains.insert(d)
      const race = <A>(effect: (i: number) => Effect.Effect<A>) =>
        Effect.all(Array.from({ length: 8 }, (_, i) => effect(i)), { concurrency: "unbounded" })
      const finished = yield* race((i) => messages.finish(m.id, i % 2 === 0 ? "delivered" : "bounced", t0 + i))
      assert.strictEqual(finished.filter(Option.isSome).length, 1)
      const complained = yield* race((i) => messages.complain(m.id, t0 + i))
      assert.strictEqual(complained.filter(Option.isSome).length, 1)
      const stored = yield* race((i) =>
        domains.recordCheck({ id: d.id, records: d.records, status: "failed", verifiedAt: null, checkedAt: t0 + i })
      )
      assert.strictEqual(stored.filter((x) => x).length, 1)
    }))

  /** Six messages of one application over two domains, with one of another application. */
  const logOf = Effect.gen(function* () {
    const repo = yield* EmailMessagesRepo
    const app = uuid() as ApplicationId
    const [d1, d2] = [uuid(), uuid()]
    // Two share a time: the larger id comes first.
    const [idLow, idHigh] = [uuid(), uuid()].sort()
    const rows = [
      message({ applicationId: app, domainId: d1, createdAt: t0 + 1, to: "Ali@Example.com", subject: "Welcome" }),
      message({ applicationId: app, domainId: d1, createdAt: t0 + 2, subject: "Invoice 77", reference: "INV-77" }),
      message({ applicationId: app, domainId: d2, createdAt: t0 + 3, subject: "Your OTP", id: idLow }),
      message({ applicationId: app, domainId: d2, createdAt: t0 + 3, subject: "Shipped", id: idHigh }),
      message({ applicationId: app, domainId: d1, createdAt: t0 + 4, to: "sara@shop.sa", subject: "Receipt" }),
      message({ applicationId: app, domainId: d2, createdAt: t0 + 5, subject: "Reset", reference: "ref-ALI" }),
    ]
    yield* Effect.forEach(rows, repo.insert)
    yield* repo.insert(message({ createdAt: t0 + 3, to: "ali@example.com" }))
    const [welcome, invoice, otp, shipped, receipt, reset] = rows
    yield* repo.finish(welcome.id, "delivered", t0 + 10)
    yield* repo.finish(invoice.id, "bounced", t0 + 10)
    yield* repo.finish(otp.id, "failed", t0 + 10)
    yield* repo.finish(receipt.id, "delivered", t0 + 10)
    yield* repo.complain(receipt.id, t0 + 11)
    yield* repo.complain(reset.id, t0 + 11)
    const list = (over: Partial<EmailListQuery> = {}) =>
      Effect.map(
        repo.list({
          applicationId: app,
          q: undefined,
          status: undefined,
          domainId: undefined,
          limit: 100,
          after: undefined,
          ...over,
        }),
        (found) => found.map((x) => x.subject),
      )
    return { app, d1, d2, list, rows: { welcome, invoice, otp, shipped, receipt, reset } }
  })

  it.effect("email messages: the list is newest first (time, then id), paged by its cursor", () =>
    Effect.gen(function* () {
      const { list, rows } = yield* logOf
      assert.deepStrictEqual(yield* list(), ["Reset", "Receipt", "Shipped", "Your OTP", "Invoice 77", "Welcome"])
      assert.deepStrictEqual(yield* list({ limit: 3 }), ["Reset", "Receipt", "Shipped"])
      const after = (m: EmailMessage) => ({ createdAt: m.createdAt, id: m.id })
      assert.deepStrictEqual(yield* list({ limit: 3, after: after(rows.shipped) }), [
        "Your OTP",
        "Invoice 77",
        "Welcome",
      ])
      assert.deepStrictEqual(yield* list({ limit: 2, after: after(rows.otp) }), ["Invoice 77", "Welcome"])
      assert.deepStrictEqual(yield* list({ after: after(rows.welcome) }), [])
      assert.deepStrictEqual(yield* list({ applicationId: uuid() as ApplicationId }), [])
    }))

  it.effect("email messages: the list's filters: each status, undelivered, complained, domain, combined", () =>
    Effect.gen(function* () {
      const { d1, d2, list, rows } = yield* logOf
      const by = (status: ListStatus) => list({ status })
      assert.deepStrictEqual(yield* by("delivered"), ["Receipt", "Welcome"])
      assert.deepStrictEqual(yield* by("sent"), ["Reset", "Shipped"])
      assert.deepStrictEqual(yield* by("bounced"), ["Invoice 77"])
      assert.deepStrictEqual(yield* by("failed"), ["Your OTP"])
      assert.deepStrictEqual(yield* by("undelivered"), ["Your OTP", "Invoice 77"])
      assert.deepStrictEqual(yield* by("complained"), ["Reset", "Receipt"])
      assert.deepStrictEqual(yield* list({ domainId: d1 }), ["Receipt", "Invoice 77", "Welcome"])
      assert.deepStrictEqual(yield* list({ domainId: d2, status: "undelivered" }), ["Your OTP"])
      assert.deepStrictEqual(yield* list({ domainId: uuid() }), [])
      // A domain id from the query string that is no uuid names no domain (and is no statement's error).
      assert.deepStrictEqual(yield* list({ domainId: "not-a-uuid" }), [])
      assert.deepStrictEqual(
        yield* list({
          status: "delivered",
          limit: 1,
          after: { createdAt: rows.receipt.createdAt, id: rows.receipt.id },
        }),
        ["Welcome"],
      )
    }))

  it.effect("email messages: q matches a part of the recipient, subject or reference, whatever its case", () =>
    Effect.gen(function* () {
      const { list } = yield* logOf
      assert.deepStrictEqual(yield* list({ q: "ali" }), ["Reset", "Welcome"])
      assert.deepStrictEqual(yield* list({ q: "@example.com" }), [
        "Reset",
        "Shipped",
        "Your OTP",
        "Invoice 77",
        "Welcome",
      ])
      assert.deepStrictEqual(yield* list({ q: "inv-7" }), ["Invoice 77"])
      assert.deepStrictEqual(yield* list({ q: "otp" }), ["Your OTP"])
      assert.deepStrictEqual(yield* list({ q: "sara@shop" }), ["Receipt"])
      assert.deepStrictEqual(yield* list({ q: "ali", status: "delivered" }), ["Welcome"])
      // No pattern characters: `%` and `_` are matched as themselves.
      assert.deepStrictEqual(yield* list({ q: "%" }), [])
      assert.deepStrictEqual(yield* list({ q: "_" }), [])
      assert.deepStrictEqual(yield* list({ q: "nothing" }), [])
    }))
}
