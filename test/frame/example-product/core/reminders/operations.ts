/** The Reminders operations, each declared once: routes, decoding, the document and the client come from them. */
import { Effect, Schema } from "effect"
import { operation } from "../pipeline/operation.ts"
import { TooManyReminders } from "./errors.ts"
import { type Reminder, ReminderLimits } from "./model.ts"
import { Reminders } from "./service.ts"

const ScheduleBody = Schema.Struct({
  text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(ReminderLimits.maxTextLength)),
  due_in_seconds: Schema.Int.pipe(Schema.between(1, ReminderLimits.maxDelaySeconds)),
})

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
    // No `decode`: the declared Schema decodes the body (refused fields come back in `fields` and `errors`).
    body: ScheduleBody,
    output: ReminderOutput,
    errors: [TooManyReminders],
    idempotent: true,
    service: Reminders,
    run: (reminders, p, { body }) =>
      Effect.map(reminders.schedule(p, { text: body.text, dueInSeconds: body.due_in_seconds }), render),
  }),
  operation({
    name: "reminders.list",
    summary: "The application's reminders, oldest first.",
    method: "GET",
    path: "/v1/reminders",
    caller: { _tag: "Key", guard: { audience: "application", scope: "reminders:read" } },
    parameters: [],
    body: undefined,
    output: Schema.Struct({ data: Schema.Array(ReminderOutput) }),
    errors: [],
    idempotent: false,
    service: Reminders,
    run: (reminders, p) => Effect.map(reminders.list(p), (list) => ({ data: list.map(render) })),
  }),
]
