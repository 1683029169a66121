import { Context, Data, type Effect } from "effect"
import type { SaudiMobile } from "../core/shared/brands.ts"

export interface Sms {
  readonly to: SaudiMobile
  readonly text: string
}

export interface SmsReceipt {
  /** The provider's id for the message. */
  readonly providerMessageId: string
}

/** The network or provider refused the message: `502 send_failed` with these fields. */
export class SmsRefused extends Data.TaggedError("SmsRefused")<{
  readonly providerCode: string
  readonly message: string
}> {}

/** The SMS gateway: sends one text to one Saudi mobile. */
export class SmsGateway extends Context.Tag("ports/SmsGateway")<SmsGateway, {
  readonly send: (sms: Sms) => Effect.Effect<SmsReceipt, SmsRefused>
}>() {}
