/** Every price, limit and default of the platform: the one place each number is written. */

export const Prices = {
  /** SAR 0.09 for each SMS code sent by Verify start or resend, live and partner keys. */
  verifySmsHalalas: 9,
  /** A chat-app template message, by its template's category, charged when the platform accepts it (DECISIONS 7.3). */
  chatmsgHalalas: { marketing: 20, utility: 5, authentication: 5 },
} as const

export const Email = {
  /** How long a sender domain waits for its records before it fails (DECISIONS 8.2). */
  pendingHours: 72,
  /** A pending domain's records are checked again this often, in platform time. */
  checkEveryMs: 10 * 60_000,
  /** Sender domains an application holds, in any status. */
  maxDomains: 5,
  subjectMax: 255,
  /** `text` and `html`, each, in UTF-8 bytes (256 KB). */
  bodyMaxBytes: 262_144,
  referenceMax: 128,
  dkimSelector: "svc",
  spfInclude: "include:spf.mail.svc.sa",
  /** Where bounces come back: the envelope sender is `b+<id>@` this, and each domain's `return_path` CNAME's target. */
  bounceDomain: "bounces.mail.svc.sa",
  /** A domain name, in characters (DNS's limit; DECISIONS 8.2 `invalid_request` over it). */
  domainMax: 253,
  /** Domains no sender may claim, unless `PLATFORM_DOMAINS` says otherwise. */
  platformDomains: ["svc.sa"],
  /** `q` of the log, in characters. */
  queryMax: 100,
} as const

export const Notifications = {
  /** Reports later than this after a message's creation change nothing (DECISIONS 7.3). */
  followMs: 48 * 3_600_000,
  /** A caller's `reference`, in code points. */
  referenceMax: 128,
  /** How long a real network's template list may be served from its cache. */
  templatesCacheMs: 5 * 60_000,
} as const

/** Chat (DECISIONS 9.1, 9.2): conversation menus and the auto-attendant's menu, lengths in code points. */
export const Chat = {
  /** Conversation menus per connected app (`app_name`) and application. */
  maxMenus: 10,
  menuTitleMax: 30,
  menuUrlMax: 2048,
  /** An attendant menu's JSON, in UTF-8 bytes (64 KB), and its choices at every level together. */
  attendantMenuMaxBytes: 65_536,
  attendantMaxChoices: 256,
  greetingMax: 1024,
  /** Choices on one level. */
  choicesPerLevel: 10,
  /** Levels of nesting: the top level is level 1. */
  maxDepth: 3,
  choiceIdMax: 200,
  choiceTitleMax: 24,
  choiceDescriptionMax: 72,
  answerMax: 1024,
  /** The attendant log's `limit` (1 to 50) and its `q` (code points). */
  logMaxLimit: 50,
  logQueryMax: 100,
  /** A log entry (a conversation) is deleted this long after it started. */
  logRetentionMs: 90 * 24 * 60 * 60_000,
  /** A conversation without a customer message this long ends `expired` (DECISIONS 9.3). */
  conversationSilenceMs: 24 * 60 * 60_000,
  /**
   * A hand-over to the team (a conversation ended `team`) keeps one active member busy this long: `after_hours`
   * counts a member free while the team's active members outnumber its hand-overs this recent (docs/decisions.md).
   */
  handoverBusyMs: 30 * 60_000,
  /** A team member is invited again no sooner than this after the last invitation (DECISIONS 9.4 `invite_wait`). */
  inviteWaitMs: 5 * 60_000,
  /** The platform's own address its team invitations come from (docs/decisions.md, "Chat team"). */
  invitationFrom: "team@mail.svc.sa",
  /** A team member's `name`, in code points. */
  memberNameMax: 100,

  /**
   * The attendant's replies through the chat network: a failed send is tried again after 5 s, doubling up to an
   * hour, 10 attempts in all (about 1.4 hours, inside the network's 24-hour window); a sender holds a reply 60 s
   * (more than a send's 10 s timeout) before another may take it.
   */
  replyRetryMs: 5_000,
  replyRetryMaxMs: 60 * 60_000,
  replyAttempts: 10,
  replyClaimMs: 60_000,
} as const

export const RateLimit = {
  /** Per presented credential, fixed window, counted before authentication. */
  requests: 120,
  windowMs: 60_000,
} as const

export const Http = {
  /** Request bodies larger than this are refused (`400 invalid_request`) before they are read whole. */
  maxBodyBytes: 1024 * 1024,
  /**
   * Header fields larger than this together (each name and value, as the request gives them) are refused
   * (`431 headers_too_large`) by every way in alike. The hosts' own parsers allow `parserMaxHeaderBytes`,
   * so the platform, not the runtime, decides up to there.
   */
  maxHeaderBytes: 16 * 1024,
  parserMaxHeaderBytes: 64 * 1024,
  /** JSON bodies nested deeper than this (arrays and objects) are `400 invalid_json`, before any parsing (DECISIONS 18). */
  maxJsonDepth: 64,
  /** A refusal quotes at most this many characters of a refused value (a name, a field's value; DECISIONS 18). */
  maxEchoChars: 256,
  /**
   * A caller's `X-Request-Id` is the request's id when it is this long (and of letters, digits, `-`, `.`, `:`):
   * longer than any code or phone number (adapters/http/request-log.ts).
   */
  requestIdMinChars: 16,
  requestIdMaxChars: 128,
} as const

export const Idempotency = {
  maxKeyLength: 128,
  ttlMs: 24 * 60 * 60_000,
  /**
   * A request still running holds its key this long at most: if its process dies, the key frees itself
   * instead of answering `idempotency_in_progress` for a day. Requests end well within it (sends time out at 10 s).
   */
  inProgressLeaseMs: 2 * 60_000,
} as const

export const VerifyLimits = {
  resends: 3,
  sandboxLifetimeStarts: 10,
  codeLength: { min: 4, max: 8, default: 6 },
  codeLifetimeMinutes: { min: 1, max: 15, default: 10 },
  maxAttempts: { min: 1, max: 5, default: 3 },
  hourlyCapPerDestination: { min: 1, max: 10_000, default: 5 },
  maxPerIpPerHour: { min: 1, max: 100_000, default: 20 },
  /** Rolling caps look back this far on the platform clock. */
  capWindowMs: 60 * 60_000,
  /** The expiry sweep runs this often and picks codes at least `sweepGraceMs` past expiry. */
  sweepIntervalMs: 10 * 60_000,
  sweepGraceMs: 5 * 60_000,
} as const

export const GuardDefaults = {
  enabled: true,
  /** Pause when, in a rolling hour, at least `minSends` codes went out and under `minVerifiedPercent` were verified. */
  minSends: 100,
  minVerifiedPercent: 10,
  windowMs: 60 * 60_000,
} as const

export const Webhooks = {
  /** A 2xx within this long is a success. */
  timeoutMs: 5_000,
  /** Delays before each retry after a failed attempt; then the delivery is given up. */
  retryDelaysMs: [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000],
} as const

export const Wallet = {
  /** `low_balance_alert_halalas` of an account that set none (DECISIONS 12). */
  lowBalanceAlertHalalas: 1_000,
  /** The auto top-up of an account that set none: off, SAR 10 threshold, SAR 100 a top-up. */
  autoTopup: { enabled: false, thresholdHalalas: 1_000, amountHalalas: 10_000 },
  /** A top-up link's or proforma's `amount_halalas`: SAR 10 to SAR 100,000. */
  topupHalalas: { min: 1_000, max: 10_000_000 },
  /** The alert and the auto top-up threshold: at most SAR 100,000. */
  maxThresholdHalalas: 10_000_000,
  /** VAT added on top of a top-up, percent (DECISIONS 12). */
  vatPercent: 15,
  topupLinkLifetimeMs: 24 * 60 * 60_000,
  proformaLifetimeMs: 14 * 24 * 60 * 60_000,
  /** The account proforma payments are made to (bank transfer). */
  bankIban: "SA0380000000608010167519",
} as const

export const Lists = { defaultLimit: 20, maxLimit: 100 } as const

/** The Partner API's client applications (DECISIONS 13). */
export const PartnerLimits = {
  maxNameLength: 100,
  maxExternalIdLength: 255,
  maxWebsiteLength: 2048,
  /** A logo's decoded bytes: 512 KiB. */
  maxLogoBytes: 512 * 1024,
  /** A logo's declared width times height (DECISIONS 18): 4096 × 4096. */
  maxLogoPixels: 16_777_216,
  maxBulkIds: 100,
  maxAppealLength: 2000,
  /** `q` of the list, in characters (code points). */
  maxQueryLength: 100,
} as const

/** Lengths of console fields, in characters (code points). */
export const Fields = {
  /** Account, application and connected-app names, an application's `external_id`. */
  maxNameLength: 200,
  /** A webhook endpoint's URL. */
  maxUrlLength: 2048,
  /** An e-mail address (RFC 5321's path limit). */
  maxEmailLength: 254,
  /** One console wallet credit: at most SAR 100,000,000. */
  maxCreditHalalas: 10_000_000_000,
} as const

/** Approvals of account-API operations (DECISIONS 11). */
export const Approvals = {
  /** An approval expires 24 h after it was asked, approved or not. */
  ttlMs: 24 * 60 * 60_000,
  /** The operations that need one on an account that set no policy. */
  defaultPolicy: ["applications.unpause", "chat.team.add"],
} as const

/** The console's web pages (docs/decisions.md, "The console as a web app"). */
export const ConsolePages = {
  /** A session lasts this long after sign-in, whatever is done in it. */
  sessionMs: 8 * 60 * 60_000,
  /** Sign-in attempts per address in one rate window (`RateLimit.windowMs`), counted as the API counts requests. */
  signInAttempts: 10,
  /** A form's body larger than this is refused with a page before it is parsed. */
  maxFormBytes: 64 * 1024,
  /** The lists' length (newest first). */
  listMax: 100,
} as const

/**
 * Retention (docs/decisions.md, "Retention"): how long each kept row is needed, by the rule that needs it. Every
 * product's retention job deletes what no rule needs any longer, on the platform clock, in batches of
 * `batchRows` rows, each batch its own short statement.
 */
export const Retention = {
  /** How often a retention job may run (it runs sooner only when something became old enough to drop). */
  intervalMs: 60 * 60_000,
  /** Rows one delete statement takes at most; a job repeats it until a batch comes back short. */
  batchRows: 1_000,
  /*
   * Rate-limit windows: two windows after they began (`RateLimit.windowMs`); idempotency records:
   * `Idempotency.ttlMs` after they expired; the partner feed: `feedRetentionMs` (core/partner/feed.ts, 30 days).
   *
   * Verify's sends: while a usage read may still ask for their Riyadh month (this month and the two before, 59
   * to 92 days: `usageSince` of core/usage/period.ts); the caps, the spend cap and the guard read one hour or
   * one day, well inside that.
   */
  /**
   * Verify's terminal verifications (live and partner: sandbox ones count toward the lifetime cap and are kept):
   * 90 days after they were created, as the partner verification log shows them (core/partner/verification-log.ts),
   * and no sooner than usage stops reading their `verified_at`. Pending ones are kept.
   */
  verificationsMs: 90 * 24 * 60 * 60_000,
  /**
   * The latest a verification can still be verified after it was created: a code lives at most 15 minutes and
   * each of the 3 resends restarts it (what the verifications' retention adds for usage's `verified_at`).
   */
  verificationOpenMs: (VerifyLimits.resends + 1) * VerifyLimits.codeLifetimeMinutes.max * 60_000,
  /**
   * The webhook delivery log keeps a finished delivery (succeeded or given up) 30 days after it was created, its
   * attempts with it; a pending one is kept whatever its age.
   */
  webhookLogMs: 30 * 24 * 60 * 60_000,
  /**
   * An outbox event is kept 30 days after it was appended, and after that until the dispatcher has routed it and
   * none of its deliveries is pending. Never less than the partner feed's 30 days: the memory store's feed is
   * the outbox itself.
   */
  outboxMs: 30 * 24 * 60 * 60_000,
  /** The SMS simulator's log (only while it is selected): 7 days. */
  simulatorLogMs: 7 * 24 * 60 * 60_000,
} as const

/** The store assistant (DECISIONS 9.5). */
export const Stores = {
  /** Products an assistant store read shows; `products_total` counts them all. */
  productsShown: 50,
  /** A connected store's products are read again every 6 hours of platform time. */
  readEveryMs: 6 * 3_600_000,
  /** Stores read by one run of the read job before it looks again. */
  readBatch: 20,
  /** A store's reference on its platform: 1 to 128 of `[A-Za-z0-9._-]`. */
  refMax: 128,
  /** A merchant's access token, as the console gives it. */
  tokenMax: 4096,
} as const
