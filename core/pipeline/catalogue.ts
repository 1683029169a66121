/**
 * The account API's operations as the platform assembled them from its products (adapters/products.ts): the
 * catalogue (`GET /v1/operations`), call by name and the approval policy's names read them here.
 */
import { Context } from "effect"
import type { AnyOperation } from "./operation.ts"

export class AccountCatalogue extends Context.Tag("core/AccountCatalogue")<AccountCatalogue, {
  /** Every account-API operation, in the order of the products list. */
  readonly operations: ReadonlyArray<AnyOperation>
}>() {}

/** Whether an operation is one of the account API's (an account token calls it). */
export const isAccountOperation = (op: AnyOperation): boolean => op.caller._tag === "Account"
