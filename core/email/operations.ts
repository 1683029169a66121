/** Email's key operations (DECISIONS 8.1), each declared once: the send and the read, live keys only. */
import { Either, Schema } from "effect"
import { NotFound, SendFailed } from "../errors.ts"
import { fieldsRefused } from "../pipeline/decode.ts"
import { decodeWith } from "../pipeline/decode.ts"
import { LiveKeyRequired } from "../pipeline/errors.ts"
import { type AnyOperation, operation, type RawInput } from "../pipeline/operation.ts"
import { InvalidDestination } from "../verify/errors.ts"
import {
  EmailAccessPending,
  EmailAccessRequired,
  EmailProductOff,
  EmailUnavailable,
  SenderNotVerified,
} from "./errors.ts"
import { Email } from "./service.ts"
import { EmailOutput, SendBody } from "./wire.ts"

const sendGuard = { audience: "application", scope: "email:send", liveOnly: true } as const
const readGuard = { audience: "application", scope: "email:read", liveOnly: true } as const

const decodeBody = decodeWith(SendBody)

/** The body by its Schema, then `text`, `html` or both (one of them not empty): `400 invalid_request`. */
const decodeSend = (raw: RawInput) =>
  Either.flatMap(
    decodeBody(raw.body ?? {}),
    (body) =>
      (body.text ?? "") === "" && (body.html ?? "") === ""
        ? Either.left(fieldsRefused({ text: "`text` or `html` is required" }, { text: "required" }))
        : Either.right(body),
  )

export const emailOperations = [
  operation({
    name: "email.messages.send",
    summary: "Sends one transactional e-mail from an address on a verified sender domain of the application " +
      "(free; refused by the provider: `502 send_failed`, nothing kept).",
    method: "POST",
    path: "/v1/email/messages",
    caller: { _tag: "Key", guard: sendGuard },
    parameters: [],
    body: SendBody,
    decode: decodeSend,
    output: EmailOutput,
    errors: [
      LiveKeyRequired,
      EmailAccessRequired,
      EmailAccessPending,
      EmailProductOff,
      InvalidDestination,
      SenderNotVerified,
      SendFailed,
      EmailUnavailable,
    ],
    idempotent: true,
    service: Email,
    // The account's access and the application's Email come before the body is read (DECISIONS 8.1).
    locate: (e, p) => e.keyGate(p),
    run: (e, p, body) => e.send(p, body),
  }),
  operation({
    name: "email.messages.read",
    summary: "Reads an e-mail of the application: its status, whether it was complained about.",
    method: "GET",
    path: "/v1/email/messages/{id}",
    caller: { _tag: "Key", guard: readGuard },
    parameters: [{ name: "id", in: "path", description: "The e-mail's id", schema: Schema.String, required: true }],
    body: undefined,
    output: EmailOutput,
    errors: [LiveKeyRequired, NotFound],
    idempotent: false,
    service: Email,
    run: (e, p, input) => e.get(p, input.params.id),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
