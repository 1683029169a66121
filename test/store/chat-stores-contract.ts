/**
 * The store assistant's part of Chat's store contract (test/store/contracts/chat.ts runs it): one store per
 * application, the account's stores oldest first, reads and postponed reads, the due list, the tools.
 */
import { assert } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type ChatStore, defaultTools } from "../../core/chat/store-model.ts"
import { type AccountId, type ApplicationId, halalas } from "../../core/shared/brands.ts"
import { ChatStoresRepo } from "../../ports/store/chat-stores.ts"
import { type It, uuid } from "./fixtures.ts"

const store = (over: Partial<ChatStore> = {}): ChatStore => ({
  id: uuid(),
  accountId: uuid() as AccountId,
  applicationId: uuid() as ApplicationId,
  platform: "salla",
  ref: "shop-1",
  name: "متجر",
  url: "https://shop.sa",
  tokenSealed: "sealed",
  products: [{ id: "p1", name: "تمر", priceHalalas: halalas(1_500), available: true }],
  productsReadAt: 1_000,
  nextReadAt: 1_000 + 6 * 3_600_000,
  connectedAt: 1_000,
  ...over,
})

export const chatStoresContract = (it: It) => {
  it.effect("chat stores: one per application (a new one replaces it), by id and by application", () =>
    Effect.gen(function* () {
      const repo = yield* ChatStoresRepo
      const first = store()
      yield* repo.connect(first)
      assert.deepStrictEqual(yield* repo.get(first.id), Option.some(first))
      assert.deepStrictEqual(yield* repo.ofApplication(first.applicationId), Option.some(first))
      const again = { ...first, name: "renamed", tokenSealed: null }
      yield* repo.connect(again)
      assert.deepStrictEqual(yield* repo.get(first.id), Option.some(again))
      const other = store({ accountId: first.accountId, applicationId: first.applicationId, platform: "zid" })
      yield* repo.connect(other)
      assert.isTrue(Option.isNone(yield* repo.get(first.id)))
      assert.deepStrictEqual(yield* repo.ofApplication(first.applicationId), Option.some(other))
    }))

  it.effect("chat stores: the account's, oldest connection first then id, after a position", () =>
    Effect.gen(function* () {
      const repo = yield* ChatStoresRepo
      const accountId = uuid() as AccountId
      const [a, b, c] = [3_000, 1_000, 1_000].map((at) => store({ accountId, connectedAt: at }))
      yield* Effect.forEach([a, b, c, store()], repo.connect)
      const [early1, early2] = [b, c].sort((x, y) => (x.id < y.id ? -1 : 1))
      assert.deepStrictEqual(yield* repo.page(accountId, null, 10), [early1, early2, a])
      assert.deepStrictEqual(yield* repo.page(accountId, { connectedAt: early1.connectedAt, id: early1.id }, 1), [
        early2,
      ])
    }))

  it.effect("chat stores: a read replaces products and times; a failed one only moves the next read", () =>
    Effect.gen(function* () {
      const repo = yield* ChatStoresRepo
      const s = store({ nextReadAt: 5_000 })
      yield* repo.connect(s)
      const products = [{ id: "p2", name: "قهوة", priceHalalas: halalas(2_250), available: false }]
      yield* repo.saveRead(s.id, { name: "n", url: null, products, productsReadAt: 5_000, nextReadAt: 9_000 })
      const read = { ...s, name: "n", url: null, products, productsReadAt: 5_000, nextReadAt: 9_000 }
      assert.deepStrictEqual(yield* repo.get(s.id), Option.some(read))
      yield* repo.postpone(s.id, 13_000)
      assert.deepStrictEqual(yield* repo.get(s.id), Option.some({ ...read, nextReadAt: 13_000 }))
    }))

  it.effect("chat stores: the due ones earliest first, and the earliest due time", () =>
    Effect.gen(function* () {
      const repo = yield* ChatStoresRepo
      // Far in the past, so other tests' stores (due later) are not among them.
      const late = store({ nextReadAt: -50 })
      const early = store({ nextReadAt: -100 })
      yield* Effect.forEach([late, early, store({ nextReadAt: 10 ** 12 })], repo.connect)
      assert.deepStrictEqual((yield* repo.due(-50, 10)).map((s) => s.id), [early.id, late.id])
      assert.deepStrictEqual((yield* repo.due(-50, 1)).map((s) => s.id), [early.id])
      assert.deepStrictEqual(yield* repo.earliestDue, Option.some(-100))
    }))

  it.effect("chat assistant tools: none until set, then as set", () =>
    Effect.gen(function* () {
      const repo = yield* ChatStoresRepo
      const app = uuid() as ApplicationId
      assert.isTrue(Option.isNone(yield* repo.tools(app)))
      yield* repo.setTools(app, defaultTools)
      yield* repo.setTools(app, { ...defaultTools, orders: false })
      assert.deepStrictEqual(yield* repo.tools(app), Option.some({ ...defaultTools, orders: false }))
    }))
}
