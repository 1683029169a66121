/**
 * Email (DECISIONS 8): account access, the application's switch, sender domains proven by their DNS records, sends
 * in the order of checks of 8.1 through the provider, statuses moved by reports, the log.
 */
import { Clock, Effect, Option } from "effect"
import { DnsRecords } from "../../ports/dns.ts"
import { EmailProvider } from "../../ports/email.ts"
import { Secrets } from "../../ports/secrets.ts"
import { EmailAccessRepo, EmailMessagesRepo, EmailSwitchRepo, SenderDomainsRepo } from "../../ports/store/email.ts"
import type { Account } from "../accounts/model.ts"
import { Console } from "../console/service.ts"
import { notFound, SendFailed } from "../errors.ts"
import { Email as Limits } from "../limits.ts"
import type { AccountPrincipal, KeyPrincipal } from "../pipeline/authenticate.ts"
import { makeCursors } from "../pipeline/cursor.ts"
import { keysetPage, type ListQuery } from "../accounts/lists.ts"
import { type AccountId, type ApplicationId, isUuid, type Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { InvalidDestination } from "../verify/errors.ts"
import { readDomain } from "./domain.ts"
import { DkimKeys } from "../../ports/dkim.ts"
import { isSendableAddress } from "./address.ts"
import {
  DomainInvalid,
  DomainLimit,
  DomainPublic,
  DomainTaken,
  DomainTawked,
  EmailAccessPending,
  EmailAccessRequired,
  EmailLocked,
  EmailProductOff,
  EmailUnavailable,
  SenderNotVerified,
} from "./errors.ts"
import type { DomainRecord, EmailAccess, EmailMessage, EmailStatus, ListStatus, SenderDomain } from "./model.ts"
import { checkRecords, recordsFor } from "./records.ts"

export interface SendInput {
  readonly from: string
  readonly to: string
  readonly subject: string
  readonly text?: string | undefined
  readonly html?: string | undefined
  readonly reference?: string | undefined
}

export const accessJson = (a: EmailAccess) => ({
  status: a.status,
  requested_at: a.requestedAt === null ? null : isoMillis(a.requestedAt),
  decided_at: a.decidedAt === null ? null : isoMillis(a.decidedAt),
})

export const domainJson = (d: SenderDomain) => ({
  id: d.id,
  domain: d.domain,
  status: d.status,
  records: d.records.map((r) => ({ ...r })),
  pending_hours: Limits.pendingHours,
  pending_until: isoMillis(d.pendingUntil),
  verified_at: d.verifiedAt === null ? null : isoMillis(d.verifiedAt),
  created_at: isoMillis(d.createdAt),
})

export const emailJson = (m: EmailMessage) => ({
  id: m.id,
  application_id: m.applicationId,
  from: m.from,
  to: m.to,
  subject: m.subject,
  reference: m.reference,
  status: m.status,
  complained: m.complained,
  test: m.test,
  domain_id: m.domainId,
  domain: m.domain,
  created_at: isoMillis(m.createdAt),
  updated_at: isoMillis(m.updatedAt),
})

/** The envelope sender that brings a message's bounces back (DECISIONS 8.3). */
export const envelopeFromOf = (id: string) => `b+${id}@${Limits.bounceDomain}`

/** The message id an envelope sender names, if it is one of ours. */
export const messageIdOfEnvelope = (address: string): string | undefined => {
  const match = /^b\+([0-9a-f-]{36})@(.+)$/i.exec(address.trim())
  return match !== null && match[2].toLowerCase() === Limits.bounceDomain && isUuid(match[1].toLowerCase())
    ? match[1].toLowerCase()
    : undefined
}

export interface EmailSettings {
  /** Domains no sender may claim (`PLATFORM_DOMAINS`; DECISIONS 8.2 `domain_tawked`). */
  readonly platformDomains: ReadonlyArray<string>
}

export class EmailSettingsTag extends Effect.Tag("core/EmailSettings")<EmailSettingsTag, EmailSettings>() {}

export class Email extends Effect.Service<Email>()("core/Email", {
  effect: Effect.gen(function* () {
    const accessRepo = yield* EmailAccessRepo
    const switches = yield* EmailSwitchRepo
    const domains = yield* SenderDomainsRepo
    const messages = yield* EmailMessagesRepo
    const provider = yield* EmailProvider
    const dns = yield* DnsRecords
    const secrets = yield* Secrets
    const operator = yield* Console
    const dkim = yield* DkimKeys
    const settings = yield* EmailSettingsTag
    const cursors = yield* makeCursors

    const accessMessage = {
      required: "Email is not open to this account: ask for it with email.access.request.",
      pending: "The account's request for Email waits for a decision: read email.access.show later.",
      off: "Email is turned off for this application: the console turns it on.",
    }
    const accessPath = "/v1/account/email/access"

    /** The access codes and the switch (DECISIONS 8.1, 8.2): the account's access, then the application's Email. */
    const gate = (accountId: AccountId, applicationId: ApplicationId) =>
      Effect.gen(function* () {
        const access = yield* accessRepo.get(accountId)
        if (access.status === "none" || access.status === "denied") {
          return yield* new EmailAccessRequired({
            message: accessMessage.required,
            needs: ["email_access"],
            next: { operation: "email.access.request", method: "POST", path: accessPath },
          })
        }
        if (access.status === "pending") {
          return yield* new EmailAccessPending({
            message: accessMessage.pending,
            needs: ["email_access"],
            next: { operation: "email.access.show", method: "GET", path: accessPath },
          })
        }
        if (!(yield* switches.enabled(applicationId))) {
          return yield* new EmailProductOff({ message: accessMessage.off, needs: ["email_product"] })
        }
      })

    /** A key operation's steps before its body (the send's `locate`). */
    const keyGate = (p: KeyPrincipal) => gate(p.account.id, p.application.id)

    /** An account operation's steps before its body, on the application its path names (already the account's). */
    const applicationGate = (p: AccountPrincipal, applicationId: string) =>
      gate(p.account.id, applicationId as ApplicationId)

    /** `from` on a verified domain of the application, then the provider; a refusal keeps nothing. */
    const deliver = (
      owner: { readonly applicationId: ApplicationId; readonly accountId: AccountId },
      input: SendInput,
      test: boolean,
    ) =>
      Effect.gen(function* () {
        if (!isSendableAddress(input.to)) return yield* new InvalidDestination({})
        const at = input.from.lastIndexOf("@")
        const fromDomain = at > 0 && isSendableAddress(input.from) ? input.from.slice(at + 1).toLowerCase() : ""
        const held = (yield* domains.list(owner.applicationId)).find((d) => d.domain === fromDomain)
        if (held === undefined || held.status !== "verified") {
          return yield* new SenderNotVerified({
            message: "`from` must be an address on a verified sender domain of this application.",
          })
        }
        const id = yield* secrets.uuid
        const now = yield* Clock.currentTimeMillis
        const message: EmailMessage = {
          id,
          applicationId: owner.applicationId,
          accountId: owner.accountId,
          from: `${input.from.slice(0, at)}@${fromDomain}`,
          to: input.to,
          subject: input.subject,
          reference: input.reference ?? null,
          status: "sent",
          complained: false,
          test,
          domainId: held.id,
          domain: held.domain,
          providerMessageId: null,
          createdAt: now,
          updatedAt: now,
        }
        yield* messages.insert(message)
        const sent = yield* Effect.either(provider.send({
          id,
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: input.text ?? null,
          html: input.html ?? null,
          envelopeFrom: envelopeFromOf(id),
          dkim: {
            domain: held.domain,
            selector: Limits.dkimSelector,
            privateKeyPem: secrets.unseal(held.dkimPrivateKeySealed),
          },
        }))
        if (sent._tag === "Left") {
          // Refused or unreachable: nothing is kept.
          yield* messages.remove(id)
          return yield* sent.left._tag === "EmailRefused"
            ? new SendFailed({ provider_code: sent.left.providerCode, message: sent.left.message })
            : new EmailUnavailable({ message: "The e-mail service did not answer; nothing was sent." })
        }
        yield* messages.setProviderId(id, sent.right.providerMessageId)
        return emailJson(message)
      })

    /** The send (DECISIONS 8.1): the access codes and the switch ran before the body was read (its `locate`). */
    const send = Effect.fn("Email.send", untracedStacks)(function* (p: KeyPrincipal, input: SendInput) {
      return yield* deliver({ applicationId: p.application.id, accountId: p.account.id }, input, false)
    })

    /**
     * The console's test mail (DECISIONS 8.1, suggested): `test: true`, from `test@` the application's first
     * verified domain unless `from` is given; free of the account's access, which is the operator's to decide.
     */
    const sendTest = Effect.fn("Email.sendTest", untracedStacks)(
      function* (applicationId: string, to: string, from: string | undefined) {
        const app = yield* operator.application(applicationId)
        const verified = (yield* domains.list(app.id)).find((d) => d.status === "verified")
        return yield* deliver({ applicationId: app.id, accountId: app.accountId }, {
          from: from ?? `test@${verified?.domain ?? "unverified.invalid"}`,
          to,
          subject: "Test message",
          text: `A test message from ${app.name}, sent from the console.`,
        }, true)
      },
    )

    const get = Effect.fn("Email.get", untracedStacks)(function* (p: KeyPrincipal, id: string) {
      if (!isUuid(id)) return yield* notFound
      const found = yield* messages.get(p.application.id, id)
      if (Option.isNone(found)) return yield* notFound
      return emailJson(found.value)
    })

    /** A report on a message (the simulator's, or what came back to the envelope sender): `sent` → final; complaints. */
    const report = Effect.fn("Email.report", untracedStacks)(
      function* (id: string, kind: EmailStatus | "complained") {
        if (!isUuid(id)) return yield* notFound
        const found = yield* messages.find(id)
        if (Option.isNone(found)) return yield* notFound
        const now = yield* Clock.currentTimeMillis
        if (kind === "complained") {
          return emailJson(Option.getOrElse(yield* messages.complain(id, now), () => found.value))
        }
        if (kind === "sent") return emailJson(found.value)
        return emailJson(Option.getOrElse(yield* messages.finish(id, kind, now), () => found.value))
      },
    )

    // --- Access (account API and console) ---------------------------------------------------------------------

    /** `none` or `denied` → `pending` (`created`: the request was made now); otherwise the access as it is. */
    const requestAccess = Effect.fn("Email.requestAccess", untracedStacks)(function* (p: AccountPrincipal) {
      const access = yield* accessRepo.get(p.account.id)
      if (access.status === "none" || access.status === "denied") {
        const now = yield* Clock.currentTimeMillis
        const next: EmailAccess = { accountId: p.account.id, status: "pending", requestedAt: now, decidedAt: null }
        yield* accessRepo.put(next)
        return { created: true, access: accessJson(next) }
      }
      return { created: false, access: accessJson(access) }
    })

    const showAccess = (p: AccountPrincipal) => Effect.map(accessRepo.get(p.account.id), accessJson)

    const decideAccess = Effect.fn("Email.decideAccess", untracedStacks)(
      function* (accountId: string, status: "granted" | "denied") {
        const account: Account = yield* operator.account(accountId)
        const access = yield* accessRepo.get(account.id)
        const next: EmailAccess = { ...access, status, decidedAt: yield* Clock.currentTimeMillis }
        yield* accessRepo.put(next)
        return accessJson(next)
      },
    )

    const setEnabled = Effect.fn("Email.setEnabled", untracedStacks)(
      function* (applicationId: string, enabled: boolean) {
        const app = yield* operator.application(applicationId)
        yield* switches.setEnabled(app.id, enabled)
        return { enabled }
      },
    )

    // --- Sender domains (account API) -------------------------------------------------------------------------

    /** Checks a domain's records through the DNS port now (a resolver that fails finds nothing). */
    const check = (d: SenderDomain, now: Millis) =>
      Effect.gen(function* () {
        const records: ReadonlyArray<DomainRecord> = yield* checkRecords(d.records, dns)
        // One application's domain at a time: found records do not verify a domain another has verified since.
        const all = records.every((r) => r.verified) && !(yield* domains.verifiedElsewhere(d.domain, d.applicationId))
        const status = all ? "verified" : now >= d.pendingUntil ? "failed" : "pending"
        const verifiedAt = all ? now : null
        const stored = yield* domains.recordCheck({ id: d.id, records, status, verifiedAt, checkedAt: now })
        return stored ? { ...d, records, status, verifiedAt, checkedAt: now } as SenderDomain : d
      })

    const addDomain = Effect.fn("Email.addDomain", untracedStacks)(
      function* (applicationId: string, input: string) {
        // The access codes and the switch ran before the body was read (the operation's `locate`).
        const app = applicationId as ApplicationId
        const read = readDomain(input, settings.platformDomains)
        if ("refused" in read) {
          const message = {
            invalid: "`domain` is not a domain name this platform can send from.",
            public: "`domain` is a public mailbox domain: use a domain the business owns.",
            tawked: "`domain` belongs to the platform.",
          }[read.refused]
          return yield* read.refused === "invalid"
            ? new DomainInvalid({ message })
            : read.refused === "public"
            ? new DomainPublic({ message })
            : new DomainTawked({ message })
        }
        const name = read.domain
        const now = yield* Clock.currentTimeMillis
        const held = yield* domains.list(app)
        const same = held.find((d) => d.domain === name)
        if (same !== undefined) {
          if (same.status !== "failed") return { created: false, domain: domainJson(same) }
          const pendingUntil = now + Limits.pendingHours * 3_600_000
          yield* domains.restart(same.id, pendingUntil, now)
          return {
            created: false,
            domain: domainJson(yield* check({ ...same, status: "pending", pendingUntil, checkedAt: now }, now)),
          }
        }
        if (yield* domains.verifiedElsewhere(name, app)) {
          return yield* new DomainTaken({ message: "Another application has verified this domain." })
        }
        if (held.length >= Limits.maxDomains) {
          return yield* new DomainLimit({
            message: `An application holds at most ${Limits.maxDomains} sender domains.`,
            max: Limits.maxDomains,
          })
        }
        const keys = yield* dkim.make
        const domain: SenderDomain = {
          id: yield* secrets.uuid,
          applicationId: app,
          domain: name,
          status: "pending",
          records: recordsFor(name, keys.publicKeyBase64),
          dkimPrivateKeySealed: secrets.seal(keys.privateKeyPem),
          pendingUntil: now + Limits.pendingHours * 3_600_000,
          verifiedAt: null,
          checkedAt: now,
          createdAt: now,
        }
        yield* domains.insert(domain)
        return { created: true, domain: domainJson(yield* check(domain, now)) }
      },
    )

    /** The application's domains, oldest first, as a page (an application holds at most 5). */
    const listDomains = (p: AccountPrincipal, applicationId: string, query: typeof ListQuery.Type) =>
      keysetPage(
        cursors,
        `email.senders:${applicationId}`,
        p.account.id,
        query,
        (after, limit) =>
          Effect.map(domains.list(applicationId as ApplicationId), (all) =>
            [...all].sort((x, y) =>
              x.createdAt - y.createdAt || (x.id < y.id ? -1 : 1)
            ).filter((d) =>
              after === null || d.createdAt > (after[0] as number) ||
              (d.createdAt === after[0] && d.id > (after[1] as string))
            ).slice(0, limit)),
        (d) => [d.createdAt, d.id],
        domainJson,
      )

    /** The job: every pending domain whose 10 minutes are up is checked again (DECISIONS 8.2). */
    const checkDue = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const due = yield* domains.due(now - Limits.checkEveryMs, 100)
      yield* Effect.forEach(due, (d) => check(d, now), { discard: true })
      return due.length
    })

    // --- The log (account API) --------------------------------------------------------------------------------

    const listMessages = Effect.fn("Email.listMessages", untracedStacks)(function* (
      p: AccountPrincipal,
      applicationId: string,
      query: typeof ListQuery.Type & { q?: string; status?: ListStatus; domain?: string },
    ) {
      const app = applicationId as ApplicationId
      const access = yield* accessRepo.get(p.account.id)
      const locked = (reason: "access" | "product" | "domain") =>
        new EmailLocked({ message: `The application's e-mail log is locked (${reason}).`, locked: { reason } })
      if (access.status !== "granted") return yield* locked("access")
      if (!(yield* switches.enabled(app))) return yield* locked("product")
      if (!(yield* domains.list(app)).some((d) => d.status === "verified")) return yield* locked("domain")
      return yield* keysetPage(
        cursors,
        `email.messages:${app}`,
        p.account.id,
        query,
        (after, limit) =>
          messages.list({
            applicationId: app,
            q: query.q?.toLowerCase(),
            status: query.status,
            domainId: query.domain,
            limit,
            after: after === null ? undefined : { createdAt: after[0] as number, id: after[1] as string },
          }),
        (m) => [m.createdAt, m.id],
        emailJson,
      )
    })

    return {
      keyGate,
      applicationGate,
      send,
      sendTest,
      get,
      report,
      requestAccess,
      showAccess,
      decideAccess,
      setEnabled,
      addDomain,
      listDomains,
      checkDue,
      listMessages,
    } as const
  }),
}) {}
