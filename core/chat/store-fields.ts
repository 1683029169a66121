/** The store assistant's fields as the API reads and answers them (DECISIONS 9.5). */
import { Schema } from "effect"
import { storePlatformCodes } from "../../ports/store-platforms.ts"
import { Stores as Limits } from "../limits.ts"
import type { Parameter } from "../pipeline/operation.ts"

export const refPattern = /^[A-Za-z0-9._-]+$/

export const Platform = Schema.Literal(...storePlatformCodes).annotations({ description: "`salla` or `zid`" })

/** A store's reference on its platform (Salla's or Zid's store id). */
export const StoreRef = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(Limits.refMax),
  Schema.pattern(refPattern, { message: () => `1 to ${Limits.refMax} of [A-Za-z0-9._-]` }),
).annotations({ description: `The store's id on its platform: 1 to ${Limits.refMax} of \`[A-Za-z0-9._-]\`` })

export const platformParameter: Parameter = {
  name: "platform",
  in: "path",
  description: "A store-platform code: `salla` or `zid`",
  schema: Platform,
  required: true,
}

export const ProductOutput = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  price_halalas: Schema.Int,
  available: Schema.Boolean,
}).annotations({ identifier: "StoreProduct" })

export const ToolsOutput = Schema.Struct({
  orders: Schema.Boolean,
  order_status: Schema.Boolean,
  products: Schema.Boolean,
}).annotations({ identifier: "AssistantTools" })

export const StoreOutput = Schema.Struct({
  id: Schema.UUID,
  platform: Platform,
  ref: Schema.String,
  name: Schema.String,
  application_id: Schema.UUID,
}).annotations({ identifier: "Store" })

/** A product as the assistant store read shows it: an agent's read leaves its price out (DECISIONS 18). */
const ShownProduct = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  price_halalas: Schema.optional(Schema.Int).annotations({ description: "Not shown to agents" }),
  available: Schema.Boolean,
}).annotations({ identifier: "AssistantStoreProduct" })

export const AssistantStoreOutput = Schema.Struct({
  connected: Schema.Boolean,
  store: Schema.NullOr(Schema.Struct({
    id: Schema.UUID,
    platform: Platform,
    name: Schema.String,
    url: Schema.NullOr(Schema.String),
  })),
  products: Schema.Array(ShownProduct).annotations({ description: `The first ${Limits.productsShown}` }),
  products_total: Schema.Int,
  products_read_at: Schema.NullOr(Schema.String),
  tools: ToolsOutput,
}).annotations({ identifier: "AssistantStore" })
