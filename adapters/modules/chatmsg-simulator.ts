/**
 * The chat-network simulator's state and console routes (DECISIONS 7.4): its own tables or memory, wired only
 * while `CHAT_PROVIDER` is `simulator`, so a production store holds none of it. The network it drives is
 * chosen in adapters/modules/chat-network.ts.
 */
import { chatSimulatorOperations } from "../../core/notifications/console-operations.ts"
import { ChatSimulator } from "../../core/notifications/simulator.ts"
import { SimulatedChatRepoMemory } from "../memory/chat-simulator.ts"
import { product } from "../product.ts"
import { migration as simChat } from "../sql/migrations/chatmsg-simulator/0001_sim_chat.ts"
import { SimulatedChatRepoSql } from "../sql/chat-simulator.ts"

export const chatmsgSimulatorProduct = product({
  name: "chatmsg-simulator",
  selected: (settings) => settings.chatProvider === "simulator",
  memory: SimulatedChatRepoMemory,
  sql: SimulatedChatRepoSql,
  migrations: [simChat],
  services: () => ChatSimulator.Default,
  operations: chatSimulatorOperations,
})
