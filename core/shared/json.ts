/** A JSON object as a request body parses to (fields read and checked one by one, see fields.ts). */
export type Json = Record<string, unknown>
