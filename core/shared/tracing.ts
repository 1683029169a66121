/**
 * Span options of the use cases (`Effect.fn(name, untracedStacks)`): spans keep their names, but no call
 * stack is captured and formatted per call, which cost more than the rest of a cheap request.
 */
export const untracedStacks = { captureStackTrace: false } as const
