/** The order of checks as the core runs it, including the auto-attendant's variant (no route uses it yet). */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { authorize, type Guard } from "../../../core/pipeline/authenticate.ts"
import type { ApiRequest } from "../../../core/pipeline/request.ts"
import { MemoryPlatformSecret } from "../../../adapters/memory/platform-secret.ts"
import { MemoryStore } from "../../../adapters/memory/store.ts"
import { SecretsLive } from "../../../adapters/secrets/node-crypto.ts"
import { Secrets } from "../../../ports/secrets.ts"
import { scopeTableOf } from "../../../adapters/products.ts"
import { Scopes } from "../../../core/shared/scope.ts"
import { AccountsRepo, ApplicationsRepo } from "../../../ports/store/accounts.ts"
import { CredentialsRepo } from "../../../ports/store/credentials.ts"
import { account, application, credential } from "../../store/fixtures.ts"

const StoreLayer = Layer.provideMerge(
  SecretsLive,
  Layer.mergeAll(MemoryStore, MemoryPlatformSecret, Layer.succeed(Scopes, scopeTableOf())),
)

const request = (key: string): ApiRequest => ({
  method: "PUT",
  path: "/v1/chat/attendant/draft",
  query: new URLSearchParams(),
  header: (name) => (name === "authorization" ? `Bearer ${key}` : undefined),
  body: "{",
  json: () => undefined,
  ip: "127.0.0.1",
  requestId: "r",
})

/** A connected-app key that is expired, of an unapproved application, and holds only `chat:menus`. */
const setup = Effect.gen(function* () {
  const secrets = yield* Secrets
  const owner = account()
  const app = application(owner.id, { status: "pending" })
  const key = "svc_live_attendant-test-key"
  yield* (yield* AccountsRepo).insert(owner)
  yield* (yield* ApplicationsRepo).insert(app)
  yield* (yield* CredentialsRepo).insert(credential(owner.id, app.id, {
    hash: secrets.hash(key),
    access: ["chat:menus"],
    appName: "Store app",
    expiresAt: 1_000,
    ipAllowlist: [],
  }))
  yield* TestClock.setTime(5_000)
  return key
})

const failureTag = (guard: Guard) =>
  Effect.gen(function* () {
    const key = yield* setup
    const exit = yield* Effect.flip(authorize(request(key), guard))
    return (exit as { _tag: string })._tag
  }).pipe(Effect.provide(StoreLayer))

describe("For the auto-attendant, scope is judged right after the key is recognised, before account_not_active and the request shape", () => {
  it.effect("an expired key of an unapproved application without chat:attendant answers insufficient_scope", () =>
    Effect.map(
      failureTag({ audience: "application", scope: "chat:attendant", scopeFirst: true }),
      (tag) => assert.strictEqual(tag, "insufficient_scope"),
    ))

  it.effect("the same key on an ordinary operation answers key_expired first", () =>
    Effect.map(
      failureTag({ audience: "application", scope: "chat:attendant" }),
      (tag) => assert.strictEqual(tag, "key_expired"),
    ))
})
