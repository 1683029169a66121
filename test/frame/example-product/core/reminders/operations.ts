/** The Reminders operations, each declared once: routes, decoding, the document and the client come from them. */
import { Effect, Either, Schema } from "effect"
import { decodeWith } from "../pipeline/decode.ts"
import { operation } from "../pipeline/operation.ts"
import { TooManyReminders } from "./errors.ts"
import { type Reminder, ReminderLimits } from "./model.ts"
import { Reminders } from "./service.ts"

const ScheduleBody = Schema.Struct({
  text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(ReminderLimits.maxTextLength)),
  due_in_seconds: Schema.Int.pipe(Schema.between(1, ReminderLimits.maxDelaySeconds)),
})
const decodeSchedule = decodeWith(ScheduleBody)

const ReminderOutput = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  due_at: Schema.Number,
  status: Schema.Literal("scheduled", "sent"),
})
const render = (r: Reminder) => ({ id: r.id, text: r.text, due_at: r.dueAt, status: r.status })

export const remindersOperations = [
  operation({
    name: "reminders.schedule",
    summary: "Schedules a reminder.",
    method: "POST",
    path: "/v1/reminders",
    caller: { _tag: "Key", guard: { audience: "application", scope: "reminders:write" } },
    answer: { status: 201, envelope: "bare" },
    parameters: [],
    body: ScheduleBody,
    decode: ({ body }) => Either.map(decodeSchedule(body), (b) => ({ text: b.text, dueInSeconds: b.due_in_seconds })),
    output: ReminderOutput,
    errors: [TooManyReminders],
    idempotent: true,
    service: Reminders,
    run: (reminders, p, input) => Effect.map(reminders.schedule(p, input), render),
  }),
  operation({
    name: "reminders.list",
    summary: "The application's reminders, oldest first.",
    method: "GET",
    path: "/v1/reminders",
    caller: { _tag: "Key", guard: { audience: "application", scope: "reminders:read" } },
    parameters: [],
    body: undefined,
    decode: () => Either.right(undefined),
    output: Schema.Struct({ data: Schema.Array(ReminderOutput) }),
    errors: [],
    idempotent: false,
    service: Reminders,
    run: (reminders, p) => Effect.map(reminders.list(p), (list) => ({ data: list.map(render) })),
  }),
]
