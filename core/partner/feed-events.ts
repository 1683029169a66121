/** The events of a partner account's feed (DECISIONS 13): every `service.*`, `balance.low` and the partner's `verification.*` copies. */
import { BalanceEvents, ServiceEvents, VerificationEvents } from "../webhooks/events.ts"

export const PartnerFeedEvents: ReadonlyArray<string> = [...ServiceEvents, ...BalanceEvents, ...VerificationEvents]

export const isPartnerFeedEvent = (name: string): boolean => PartnerFeedEvents.includes(name)
