/**
 * Email (DECISIONS 8): account access, each application's switch, sender domains proven by DNS, sends and the
 * log; its tables, its service over the providers (adapters/modules/email-delivery.ts, before it in the list),
 * the intake of mail that comes back and its inbound SMTP listener (adapters/email/inbound-smtp.ts, while
 * `EMAIL_INBOUND_SMTP_PORT` is set), its operations and the job that checks pending domains every 10 minutes of platform time.
 */
import type { Millis } from "../../core/shared/brands.ts"
import { Effect, Layer, Option } from "effect"
import { emailAccountOperations } from "../../core/email/account-operations.ts"
import { emailConsoleOperations } from "../../core/email/console-operations.ts"
import { emailErrors } from "../../core/email/errors.ts"
import { emailOperations } from "../../core/email/operations.ts"
import { emailScopes } from "../../core/email/scopes.ts"
import { EmailReturnsIntake } from "../../core/email/returns.ts"
import { Email, EmailSettingsTag } from "../../core/email/service.ts"
import { Email as Limits } from "../../core/limits.ts"
import type { Job } from "../../core/shared/job.ts"
import { SenderDomainsRepo } from "../../ports/store/email.ts"
import {
  EmailAccessRepoMemory,
  EmailMessagesRepoMemory,
  EmailSwitchRepoMemory,
  SenderDomainsRepoMemory,
} from "../memory/email.ts"
import { EmailReturnsMailparser } from "../email/bounces.ts"
import { inboundSmtpLayer } from "../email/inbound-smtp.ts"
import { product } from "../product.ts"
import { DkimKeysNodeCrypto } from "../secrets/dkim.ts"
import { EmailAccessRepoSql, EmailMessagesRepoSql, EmailSwitchRepoSql, SenderDomainsRepoSql } from "../sql/email.ts"
import { migration as email } from "../sql/migrations/email/0001_email.ts"
import { migration as messageSearch } from "../sql/migrations/email/0002_message_search.ts"
import { migration as messageStarts } from "../sql/migrations/email/0003_message_starts.ts"

export const DomainCheckJob = "email.domains.check"

/**
 * Each pending domain is checked again 10 minutes of platform time after its last check (and fails once past
 * `pending_until`): the job falls due when the longest-waiting one does. Several processes may check one domain
 * at once; only a check of a domain still pending is stored, so that costs a DNS query, nothing else.
 */
const domainCheck: Effect.Effect<ReadonlyArray<Job>, never, Email | SenderDomainsRepo> = Effect.gen(function* () {
  const service = yield* Email
  const domains = yield* SenderDomainsRepo
  const job: Job = {
    name: DomainCheckJob,
    nextDue: Effect.map(domains.earliestPending, Option.map((checkedAt) => checkedAt + Limits.checkEveryMs)),
    // A simulated advance: a domain checked since it began finds the same records until its pending_until.
    settledDue: (since, until) => domains.earliestSettled(since as Millis, until as Millis, Limits.checkEveryMs),
    run: Effect.asVoid(service.checkDue),
  }
  return [job]
})

export const emailProduct = product({
  name: "email",
  errors: emailErrors,
  scopes: emailScopes,
  tags: [{ name: "email", description: "Transactional e-mail from verified sender domains (DECISIONS 8)." }],
  memory: Layer.mergeAll(
    EmailAccessRepoMemory,
    EmailSwitchRepoMemory,
    SenderDomainsRepoMemory,
    EmailMessagesRepoMemory,
  ),
  sql: Layer.mergeAll(EmailAccessRepoSql, EmailSwitchRepoSql, SenderDomainsRepoSql, EmailMessagesRepoSql),
  migrations: [email, messageSearch, messageStarts],
  services: (settings) => {
    const email = Email.Default.pipe(
      Layer.provide(
        Layer.merge(Layer.succeed(EmailSettingsTag, { platformDomains: settings.platformDomains }), DkimKeysNodeCrypto),
      ),
    )
    const intake = EmailReturnsIntake.Default.pipe(Layer.provide(Layer.merge(email, EmailReturnsMailparser)))
    // The inbound SMTP listener (EMAIL_INBOUND_SMTP_PORT) hands what it receives to the same intake.
    const inbound = inboundSmtpLayer(
      settings.emailInboundSmtpPort === undefined
        ? undefined
        : { host: settings.host, port: settings.emailInboundSmtpPort },
    )
    return Layer.merge(email, Layer.provideMerge(inbound, intake))
  },
  operations: [...emailOperations, ...emailAccountOperations, ...emailConsoleOperations],
  jobs: domainCheck,
})
