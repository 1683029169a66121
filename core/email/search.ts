/**
 * What the message log's `q` matches (email.messages.list; docs/decisions.md "Email: the log's `q` by its shape"),
 * decided by its shape so that each shape is answered by an index on 1,000,000 messages (adapters/sql/email.ts,
 * migrations/email/0003) and the memory store answers the same:
 *
 * - `address`: a `q` holding `@` after its first character is an address or its start (`sara@shop.sa`,
 *   `customer4711@`): the recipients that start with it, any case (a btree range on the lowered recipient). A `q`
 *   that starts with `@` (`@example.com`) is a domain: a part, below.
 * - `start`: a `q` without three letters or digits in a row (`sa`, `q_`, `05`) gives the trigram index nothing to
 *   read: the recipients and references that start with it (btree ranges).
 * - `part`: any other `q`: a part of the recipient, the subject or the reference, any case (the trigram index).
 *
 * `q` arrives lower-cased (the service).
 */
import { hasTrigram } from "../shared/text.ts"

export type LogSearch =
  | { readonly shape: "address"; readonly q: string }
  | { readonly shape: "start"; readonly q: string }
  | { readonly shape: "part"; readonly q: string }

export const logSearch = (q: string): LogSearch =>
  q.includes("@") && !q.startsWith("@")
    ? { shape: "address", q }
    : hasTrigram(q)
    ? { shape: "part", q }
    : { shape: "start", q }

/** Whether a message's fields match `q` (lower-cased): the memory store's reading, the SQL store's statement's. */
export const searchMatches = (
  m: { readonly to: string; readonly subject: string; readonly reference: string | null },
  q: string,
): boolean => {
  const search = logSearch(q)
  const to = m.to.toLowerCase()
  const reference = m.reference?.toLowerCase() ?? null
  switch (search.shape) {
    case "address":
      return to.startsWith(q)
    case "start":
      return to.startsWith(q) || (reference !== null && reference.startsWith(q))
    case "part":
      return to.includes(q) || m.subject.toLowerCase().includes(q) || (reference !== null && reference.includes(q))
  }
}
