/** The error codes of the catalogue: Reminders. */
import { ApiErrorClass, Message } from "../shared/api-error.ts"

export class TooManyReminders
  extends ApiErrorClass<TooManyReminders>()("too_many_reminders", Message, { status: 409 }) {}

/** Every code of the product (its module's `errors`: the catalogue folds them). */
export const remindersErrors = [TooManyReminders] as const
