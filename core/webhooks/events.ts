/** The event catalogue of the spec's Section 6, and who each event reaches. */

export const VerificationEvents = ["verification.verified", "verification.failed", "verification.expired"] as const
export const MessageEvents = ["message.sent", "message.delivered", "message.read", "message.failed"] as const
export const ServiceEvents = [
  "service.approved",
  "service.rejected",
  "service.suspended",
  "service.resumed",
  "service.paused",
  "service.unpaused",
  "service.review_requested",
  "service.archived",
  "service.restored",
] as const
export const BalanceEvents = ["balance.low"] as const

export const AllEvents: ReadonlyArray<string> = [
  ...VerificationEvents,
  ...MessageEvents,
  ...ServiceEvents,
  ...BalanceEvents,
]

export const isKnownEvent = (name: string): boolean => AllEvents.includes(name)

export const isVerificationEvent = (name: string): boolean =>
  (VerificationEvents as ReadonlyArray<string>).includes(name)

/** `service.*` and `balance.*` go to the account's endpoint (any account's for `balance.*`); everything else to the application's. */
export const isAccountEvent = (name: string): boolean => name.startsWith("service.") || name.startsWith("balance.")

/** The default event of a console rehearsal. */
export const DefaultRehearsalEvent = "verification.verified"
