/** How each kind of route runs the order of checks before its handler. */
import { Effect } from "effect"
import { InsufficientRole, InvalidJson, InvalidRequest, Unauthorized } from "../../core/errors.ts"
import { roleNeeds } from "../../core/accounts/callers.ts"
import type { Role } from "../../core/keys/model.ts"
import { unstorableFields } from "../../core/shared/text.ts"
import {
  type AccountPrincipal,
  type AuthorizeServices,
  type Guard,
  type KeyPrincipal,
  makeAuthorize,
  type PartnerPrincipal,
} from "../../core/pipeline/authenticate.ts"
import { withIdempotency } from "../../core/pipeline/idempotency.ts"
import { type ApiAnswer, type ApiRequest, type Json, jsonObject } from "../../core/pipeline/request.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { IdempotencyRepo } from "../../ports/store/idempotency.ts"
import { PlatformConfig } from "../config.ts"
import type { Params } from "./router.ts"

export type Handler<R> = (req: ApiRequest, params: Params) => Effect.Effect<ApiAnswer, unknown, R>

export interface Route<R> {
  readonly method: string
  readonly path: string
  readonly handler: Handler<R>
  /** Console and account-API routes answer every error with a `message`. */
  readonly withMessage?: boolean
}

/**
 * Step 4's first check: the body is a JSON object (an empty body reads as `{}`) whose strings the stores can
 * hold (no NUL, no unpaired surrogate: `400 invalid_request` naming each such field).
 */
export const requireJson = (req: ApiRequest): Effect.Effect<Json, InvalidJson | InvalidRequest> => {
  const body = jsonObject(req.body)
  if (body === undefined) return Effect.fail(new InvalidJson({}))
  const unstorable = unstorableFields(body)
  return unstorable === undefined ? Effect.succeed(body) : Effect.fail(
    new InvalidRequest({
      message: "Some fields hold characters that cannot be stored.",
      fields: unstorable,
      errors: Object.fromEntries(Object.keys(unstorable).map((name) => [name, "invalid"])),
    }),
  )
}

type KeyHandler<R> = (p: KeyPrincipal, req: ApiRequest, params: Params) => Effect.Effect<ApiAnswer, unknown, R>
type PartnerHandler<R> = (p: PartnerPrincipal, req: ApiRequest, params: Params) => Effect.Effect<ApiAnswer, unknown, R>
type AccountHandler<R> = (p: AccountPrincipal, req: ApiRequest, params: Params) => Effect.Effect<ApiAnswer, unknown, R>

/** How key- and token-authenticated routes run: steps 1 to 3, idempotency for writes, then the handler. */
export interface Operations {
  /** A key-authenticated operation. */
  readonly key: <R>(guard: Guard, handler: KeyHandler<R>) => Handler<R | Secrets | IdempotencyRepo>
  /** A Partner API operation (partner key, either mode). */
  readonly partner: <R>(handler: PartnerHandler<R>) => Handler<R | Secrets | IdempotencyRepo>
  /** An account-API operation (account token). */
  readonly account: <R>(
    roles: ReadonlyArray<Role>,
    handler: AccountHandler<R>,
  ) => Handler<R | Secrets | IdempotencyRepo>
}

const unauthorized = new Unauthorized({})
const accountGuard: Guard = { audience: "account_token" }
const partnerGuard: Guard = { audience: "partner" }

/** Built once when the route table is: the order of checks then holds its services from the start. */
export const makeOperations: Effect.Effect<Operations, never, AuthorizeServices> = Effect.map(
  makeAuthorize,
  (authorize): Operations => ({
    key: (guard, handler) => (req, params) =>
      authorize(
        req,
        guard,
        (p) =>
          p._tag === "Key" ? withIdempotency(req, p.credential.id, handler(p, req, params)) : Effect.fail(unauthorized),
      ),
    partner: (handler) => (req, params) =>
      authorize(
        req,
        partnerGuard,
        (p) =>
          p._tag === "Partner"
            ? withIdempotency(req, p.credential.id, handler(p, req, params))
            : Effect.fail(unauthorized),
      ),
    account: (roles, handler) => {
      const refused = new InsufficientRole({
        message: `This operation is for ${roles.join(" and ")} tokens.`,
        needs: roleNeeds(roles),
      })
      return (req, params) =>
        authorize(
          req,
          accountGuard,
          (p) =>
            p._tag !== "Account"
              ? Effect.fail(unauthorized)
              // DECISIONS 10: 403 insufficient_role right after the token is recognised.
              : p.credential.holder === null || !roles.includes(p.credential.holder.role)
              ? Effect.fail(refused)
              : withIdempotency(req, p.credential.id, handler(p, req, params)),
        )
    },
  }),
)

/** A console operation: the operator's token, no rate limit, no idempotency. */
export const consoleOperation = <R>(
  handler: (req: ApiRequest, params: Params) => Effect.Effect<ApiAnswer, unknown, R>,
): Handler<R | PlatformConfig | Secrets> =>
(req, params) =>
  Effect.gen(function* () {
    const config = yield* PlatformConfig
    const secrets = yield* Secrets
    const auth = req.header("authorization")
    const presented = auth?.startsWith("Bearer ") ? auth.slice(7).trim() : ""
    if (!secrets.equal(secrets.hash(presented), secrets.hash(config.consoleToken))) {
      return yield* new Unauthorized({ message: "A valid console token is required." })
    }
    return yield* handler(req, params)
  })
