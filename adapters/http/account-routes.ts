/** The Account API (account tokens): `{ data }` bodies. More operations join with the Account API issue. */
import { Effect, Option } from "effect"
import { unpauseApplication } from "../../core/accounts/unpause.ts"
import { applicationJson } from "../../core/console/render.ts"
import { notFound } from "../../core/errors.ts"
import { ok } from "../../core/pipeline/request.ts"
import { type ApplicationId, isUuid } from "../../core/shared/brands.ts"
import { readWallet } from "../../core/wallet/read.ts"
import { ApplicationsRepo } from "../../ports/store/accounts.ts"
import { makeOperations, requireJson, type Route } from "./operation.ts"

/** An application of the caller's account; another account's is `not_found`. */
const ownApplication = (accountId: string, id: string) =>
  Effect.gen(function* () {
    const found = isUuid(id) ? yield* (yield* ApplicationsRepo).get(id as ApplicationId) : Option.none()
    if (Option.isNone(found) || found.value.accountId !== accountId) return yield* notFound
    return found.value
  })

export const accountRoutes = Effect.map(makeOperations, (operation): ReadonlyArray<Route<any>> => [
  {
    method: "POST",
    path: "/v1/applications/:application/unpause",
    handler: operation.account((p, req, params) =>
      Effect.gen(function* () {
        yield* requireJson(req)
        const app = yield* ownApplication(p.account.id, params.application)
        return ok({ data: applicationJson(yield* unpauseApplication(app.id)) })
      })
    ),
  },
  {
    method: "GET",
    path: "/v1/account/wallet",
    handler: operation.account((p) => Effect.map(readWallet(p.account.id), (wallet) => ok({ data: wallet }))),
  },
])
