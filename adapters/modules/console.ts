/**
 * The operator's console (DECISIONS 2): accounts, applications and keys, and for now the Verify settings,
 * sandbox destinations and wallet credits it still holds. No tables of its own.
 */
import { Layer } from "effect"
import { consoleOperations } from "../../core/console/operations.ts"
import { Console } from "../../core/console/service.ts"
import { product } from "../product.ts"

export const consoleProduct = product({
  name: "console",
  memory: Layer.empty,
  sql: Layer.empty,
  migrations: [],
  services: () => Console.Default,
  operations: consoleOperations,
})
