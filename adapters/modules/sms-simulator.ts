/**
 * The SMS simulator's log (DECISIONS 2): its own table or memory, wired only while `SMS_PROVIDER` is
 * `simulator`, so a production store holds none of it. The gateway that writes it is chosen with the SMS
 * provider (adapters/platform.ts).
 */
import { smsSimulatorOperations } from "../../core/simulators/operations.ts"
import { SimulatedSmsRepoMemory } from "../memory/simulator.ts"
import { smsSimulatorPages } from "../console/pages/simulators.tsx"
import { product } from "../product.ts"
import { smsSimulatorRetention } from "../retention.ts"
import { migration as simSms } from "../sql/migrations/sms-simulator/0001_sim_sms.ts"
import { migration as simSmsUnlogged } from "../sql/migrations/sms-simulator/0002_unlogged.ts"
import { SimulatedSmsRepoSql } from "../sql/simulator.ts"
import { SmsGatewaySimulator } from "../sms/simulator.ts"

export const smsSimulatorProduct = product({
  name: "sms-simulator",
  smsGateways: { simulator: SmsGatewaySimulator },
  selected: (settings) => settings.smsProvider === "simulator",
  memory: SimulatedSmsRepoMemory,
  sql: SimulatedSmsRepoSql,
  migrations: [simSms, simSmsUnlogged],
  operations: smsSimulatorOperations,
  pages: smsSimulatorPages,
  jobs: smsSimulatorRetention,
})
