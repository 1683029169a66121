/** A reminder: a text an application schedules, sent by the product's job once it falls due. */
import type { ApplicationId } from "../shared/brands.ts"

export interface Reminder {
  readonly id: string
  readonly applicationId: ApplicationId
  readonly text: string
  readonly dueAt: number
  readonly status: "scheduled" | "sent"
  readonly createdAt: number
}

/** The product's limits, written once. */
export const ReminderLimits = {
  /** Reminders an application may have scheduled at once. */
  maxScheduled: 3,
  maxTextLength: 200,
  maxDelaySeconds: 86_400,
} as const
