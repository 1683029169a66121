/** Email's wire shapes (DECISIONS 8): the send's body, the email, the access and the sender domain as answered. */
import { Schema } from "effect"
import { Email as Limits } from "../limits.ts"
import { ErrorCode } from "../pipeline/decode.ts"
import { controlCharacterMessage, hasControlCharacter } from "../shared/names.ts"
import { codePointLength, isStorableText, unstorableMessage } from "../shared/text.ts"
import { accessStatuses, domainStatuses, emailStatuses } from "./model.ts"

const utf8 = new TextEncoder()

const storable = { message: () => unstorableMessage }
const tooLong = (max: number) => ({
  message: () => `at most ${max} characters`,
  [ErrorCode]: "too_long",
  jsonSchema: { maxLength: max },
})

/** `text` or `html`: at most 256 KB of UTF-8 (262,144 bytes; DECISIONS 17), storable. */
const Body = Schema.String.pipe(
  Schema.filter(
    // Each UTF-16 unit is at most 3 bytes of UTF-8: a short string needs no encoding to be measured.
    (s) => s.length <= Limits.bodyMaxBytes / 3 || utf8.encode(s).length <= Limits.bodyMaxBytes,
    { message: () => `at most ${Limits.bodyMaxBytes} bytes of UTF-8`, [ErrorCode]: "too_long" },
  ),
  Schema.filter((s) => isStorableText(s), storable),
)

/** The subject: 1 to 255 characters, none a control character (no header can be forged from it). */
const Subject = Schema.String.pipe(
  Schema.filter((s) => codePointLength(s) <= Limits.subjectMax, tooLong(Limits.subjectMax)),
  Schema.filter((s) => s !== "", { message: () => "must not be empty", [ErrorCode]: "required" }),
  Schema.filter((s) => !hasControlCharacter(s), { message: () => controlCharacterMessage }),
  Schema.filter((s) => isStorableText(s), storable),
).annotations({
  description: "1 to 255 characters, no control character (no new line, no tab)",
  jsonSchema: { minLength: 1, maxLength: Limits.subjectMax },
})

const Reference = Schema.String.pipe(
  Schema.filter((s) => codePointLength(s) <= Limits.referenceMax, tooLong(Limits.referenceMax)),
  Schema.filter((s) => isStorableText(s), storable),
).annotations({ description: "Your reference, at most 128 characters" })

export const SendBody = Schema.Struct({
  from: Schema.String.annotations({
    description: "`local@domain` on a verified sender domain of the application (no display name)",
  }),
  to: Schema.String.annotations({ description: "One address, `local@domain` (no display name, ASCII local part)" }),
  subject: Subject,
  text: Schema.optional(Body).annotations({
    description: "The plain-text body, at most 262,144 bytes of UTF-8; `text`, `html` or both",
  }),
  html: Schema.optional(Body).annotations({
    description: "The HTML body, at most 262,144 bytes of UTF-8; `text`, `html` or both",
  }),
  reference: Schema.optional(Reference).annotations({ description: "Your reference, at most 128 characters" }),
}).annotations({ identifier: "EmailSend" })

export const EmailOutput = Schema.Struct({
  id: Schema.UUID,
  application_id: Schema.UUID,
  from: Schema.String,
  to: Schema.String,
  subject: Schema.String,
  reference: Schema.NullOr(Schema.String),
  status: Schema.Literal(...emailStatuses).annotations({
    description: "`sent` on acceptance; one report moves it to `delivered`, `bounced` or `failed` (final)",
  }),
  complained: Schema.Boolean.annotations({ description: "The recipient reported it as unwanted" }),
  test: Schema.Boolean.annotations({ description: "Sent from the console's test" }),
  domain_id: Schema.UUID,
  domain: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String,
}).annotations({ identifier: "Email" })

export const AccessOutput = Schema.Struct({
  status: Schema.Literal(...accessStatuses),
  requested_at: Schema.NullOr(Schema.String),
  decided_at: Schema.NullOr(Schema.String),
}).annotations({ identifier: "EmailAccess" })

export const SenderDomainOutput = Schema.Struct({
  id: Schema.UUID,
  domain: Schema.String,
  status: Schema.Literal(...domainStatuses),
  records: Schema.Array(Schema.Struct({
    purpose: Schema.Literal("spf", "dkim", "return_path"),
    type: Schema.Literal("TXT", "CNAME"),
    name: Schema.String,
    value: Schema.String,
    verified: Schema.Boolean,
  })),
  pending_hours: Schema.Literal(Limits.pendingHours),
  pending_until: Schema.String,
  verified_at: Schema.NullOr(Schema.String),
  created_at: Schema.String,
}).annotations({ identifier: "EmailSenderDomain" })
