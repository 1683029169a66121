/**
 * The simulated clock (DECISIONS 16), while `CLOCK` is `simulated`: its console operation. The clock itself
 * is installed with the platform's ports, and its control (`ClockSimulatorLive`) after the jobs it runs
 * (adapters/platform.ts): it drives every product's jobs.
 */
import { Layer } from "effect"
import { clockSimulatorOperations } from "../../core/simulators/operations.ts"
import { clockSimulatorPages } from "../console/pages/simulators.tsx"
import { product } from "../product.ts"

export const clockSimulatorProduct = product({
  name: "clock-simulator",
  selected: (settings) => settings.clock === "simulated",
  memory: Layer.empty,
  sql: Layer.empty,
  migrations: [],
  operations: clockSimulatorOperations,
  pages: clockSimulatorPages,
})
