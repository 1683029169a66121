/** Notifications' events (spec Section 6): a chat-app message's status moves, to the application's webhook. */
import { events } from "../shared/event.ts"
import { MessageOutput } from "./wire.ts"

const note = "`data` is the message, its `to` masked (`+96650*****67`)."

export const notificationsEvents = events([
  { name: "message.sent", summary: `The network accepted a chat-app message. ${note}`, data: MessageOutput },
  { name: "message.delivered", summary: `A chat-app message reached the phone. ${note}`, data: MessageOutput },
  { name: "message.read", summary: `A chat-app message was read. ${note}`, data: MessageOutput },
  { name: "message.failed", summary: `The network reported a failure (\`error\` set). ${note}`, data: MessageOutput },
])
