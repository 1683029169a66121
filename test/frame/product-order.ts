/**
 * The products list's order is checked by types, not at boot: `productList` (adapters/products.ts) fails tsc
 * (`npm run typecheck`, run by CI) when a product's services need a service only a later product provides,
 * naming the product. This file holds the types to it: the `@ts-expect-error` below fails tsc if the misordered
 * list were accepted, and the real list's own declaration fails tsc if it were misordered.
 */
import { accountsProduct } from "../../adapters/modules/accounts.ts"
import { platformProduct } from "../../adapters/modules/platform.ts"
import { verifyProduct } from "../../adapters/modules/verify.ts"
import { productList, products } from "../../adapters/products.ts"

// @ts-expect-error -- "The product \"verify\" needs a service that no product before it in the list provides"
export const misordered = productList([platformProduct, verifyProduct, accountsProduct])

export const reordered = productList([platformProduct, accountsProduct, verifyProduct])
export const real = productList([...products])
