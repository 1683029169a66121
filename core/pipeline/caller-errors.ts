/**
 * What each caller kind's order of checks may answer by itself, before or around an operation's use case: the
 * codes every operation of that kind may answer without declaring them. The OpenAPI document lists them for
 * every operation (core/pipeline/openapi.ts); a use case may fail with them without naming them in `errors`
 * (core/pipeline/operation.ts), and with nothing else it has not named.
 */
import { ApprovalDenied, ApprovalRequired, InsufficientRole } from "../accounts/errors.ts"
import {
  AccountNotActive,
  IdempotencyInProgress,
  IdempotencyKeyReused,
  InsufficientScope,
  InternalError,
  InvalidJson,
  InvalidRequest,
  IpNotAllowed,
  KeyExpired,
  NotFound,
  ServiceNotFound,
  ServiceRequired,
  StoreUnavailable,
  TooManyRequests,
  Unauthorized,
} from "./errors.ts"

/** What every key-authenticated operation may answer, from the order of checks. */
export const keyChecks = [
  TooManyRequests,
  Unauthorized,
  KeyExpired,
  IpNotAllowed,
  InsufficientScope,
  ServiceRequired,
  ServiceNotFound,
  AccountNotActive,
  InvalidJson,
  InvalidRequest,
  InternalError,
  StoreUnavailable,
] as const
export const idempotencyChecks = [IdempotencyInProgress, IdempotencyKeyReused] as const
/** A partner key on its own operations: no scope, no client application named. */
export const partnerChecks = [
  TooManyRequests,
  Unauthorized,
  KeyExpired,
  IpNotAllowed,
  AccountNotActive,
  InvalidJson,
  InvalidRequest,
  InternalError,
  StoreUnavailable,
] as const
/** The account API's order of checks (DECISIONS 10); any operation may be put under approval by the console. */
export const accountChecks = [
  TooManyRequests,
  Unauthorized,
  InsufficientRole,
  NotFound,
  InvalidJson,
  InvalidRequest,
  ApprovalRequired,
  ApprovalDenied,
  InternalError,
  StoreUnavailable,
] as const
export const consoleChecks = [
  Unauthorized,
  InvalidJson,
  InvalidRequest,
  NotFound,
  InternalError,
  StoreUnavailable,
] as const
/** Nobody in particular (a logo): no check of its own. */
export const publicChecks = [] as const

/** The order of checks' own codes for each caller kind. */
export const callerChecks = {
  Key: keyChecks,
  Partner: partnerChecks,
  Account: accountChecks,
  Console: consoleChecks,
  Public: publicChecks,
} as const

/** The errors of the order of checks of caller kind `Tag`. */
export type CheckErrorOf<Tag extends keyof typeof callerChecks> = InstanceType<(typeof callerChecks)[Tag][number]>
