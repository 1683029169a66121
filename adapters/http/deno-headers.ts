/**
 * The one reach of the web handler (web.ts) into Deno's private internals: the header list a `Headers` holds
 * under its internal `Symbol("header list")` (ext/fetch/20_headers.js), an array of `[name, value]` pairs as
 * the fields came, filled by the first read of a request's headers. Checked against Deno 2.9.6, pinned exactly
 * in package.json (the `deno` package); test/fences/deno-headers.test.ts fails, naming what moved, when the
 * installed Deno no longer holds it there. Upgrade `deno` only with that test passing.
 *
 * Why: iterating a `Headers` sorts and merges its fields, which costs Deno about as much as the rest of its
 * host's work on a request (bench/http.ts: the Deno ratio 0.47 counting through the iterator, 0.59 not
 * counting at all); the held list is read in place. On a runtime without it (Node, Bun) the caller iterates.
 */

/** The Deno these internals were read from (package.json pins it; the fence test holds them to each other). */
export const denoVersion = "2.9.6"

/** Deno's internal key of a `Headers`'s own list (undefined: not looked for yet; null: this runtime has none). */
let heldListKey: symbol | null | undefined

/**
 * The header list a `Headers` holds, as its fields came, when the runtime keeps it as an array under an
 * internal key (Deno); else undefined, and the caller iterates the `Headers`. A request's list is filled by
 * its first read (`headers.has(…)`): read one field first.
 */
export const heldHeaderList = (headers: Headers): ReadonlyArray<readonly [string, string]> | undefined => {
  if (heldListKey === undefined) {
    heldListKey = Object.getOwnPropertySymbols(headers).find((key) => key.description === "header list") ?? null
  }
  if (heldListKey === null) return undefined
  const list = (headers as unknown as Record<symbol, unknown>)[heldListKey]
  return Array.isArray(list) ? list : undefined
}
