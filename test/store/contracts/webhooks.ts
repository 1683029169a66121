/** The webhooks product's store contract: its endpoints. */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { AccountId, ApplicationId } from "../../../core/shared/brands.ts"
import { WebhookEndpointsRepo } from "../../../ports/store/mod.ts"
import { type It, uuid } from "../fixtures.ts"

export const contract = (it: It) => {
  it.effect("webhook endpoints: put, replace, get per owner kind and id", () =>
    Effect.gen(function* () {
      const endpoints = yield* WebhookEndpointsRepo
      const id = uuid()
      const owner = { kind: "account" as const, id }
      const endpoint = {
        owner,
        url: "https://example.com/hook",
        secret: "whsec_abc",
        events: ["verification.verified"],
      }
      assert.isTrue(Option.isNone(yield* endpoints.get(owner)))
      yield* endpoints.put(endpoint)
      assert.deepStrictEqual(yield* endpoints.get(owner), Option.some(endpoint))
      const replaced = { ...endpoint, url: "https://example.com/v2", events: [] }
      yield* endpoints.put(replaced)
      assert.deepStrictEqual(yield* endpoints.get({ kind: "account", id }), Option.some(replaced))
      assert.isTrue(Option.isNone(yield* endpoints.get({ kind: "application", id })))
    }))
}
