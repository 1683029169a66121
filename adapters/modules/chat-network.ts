/**
 * The chat network (ports/chat-network.ts), chosen by `CHAT_PROVIDER`: the simulator (DECISIONS 7.4) or the
 * WhatsApp Cloud API. Notifications and Chat come after it in the list.
 */
import { Effect, Layer } from "effect"
import { ChatNetwork } from "../../ports/chat-network.ts"
import type { SimulatedChatRepo } from "../../ports/store/chat-simulator.ts"
import { ChatNetworkCloudApi } from "../chat/cloud-api.ts"
import { ChatNetworkSimulator } from "../chat/simulator.ts"
import { product } from "../product.ts"
import { loggedCalls } from "../provider-log.ts"

/** The chat networks by the `CHAT_PROVIDER` value that selects each. */
export const chatNetworks = {
  simulator: ChatNetworkSimulator,
  // A missing or malformed WHATSAPP_* setting stops the start, naming the setting.
  whatsapp_cloud: Layer.orDie(ChatNetworkCloudApi),
} as const

export const chatNetworkProduct = product({
  name: "chat-network",
  services: (settings) => {
    const chosen = (chatNetworks as Record<string, Layer.Layer<ChatNetwork, never, SimulatedChatRepo> | undefined>)[
      settings.chatProvider
    ]
    // Each call of the chosen network logged (adapters/provider-log.ts).
    if (chosen !== undefined) {
      return Layer.effect(
        ChatNetwork,
        Effect.map(ChatNetwork, (network) => loggedCalls("chat_network", settings.chatProvider, network)),
      ).pipe(Layer.provide(chosen))
    }
    return Layer.die(
      new Error(
        `CHAT_PROVIDER=${settings.chatProvider} names no chat network; known: ${Object.keys(chatNetworks).join(", ")}`,
      ),
    )
  },
})
