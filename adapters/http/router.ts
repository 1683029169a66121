/** A small exact-segment router: `/v1/verify/:id` style patterns, grouped by method and segment count. */
import type { Params } from "../../core/pipeline/handler.ts"

interface Compiled<H> {
  readonly segments: ReadonlyArray<string>
  readonly names: ReadonlyArray<string | null>
  readonly handler: H
}

const noParams: Params = Object.freeze({})

/** The non-empty segments of a path: `/v1//verify/` is `["v1", "verify"]`. */
const segmentsOf = (path: string): Array<string> => {
  const parts: Array<string> = []
  let start = 0
  for (let i = 0; i <= path.length; i++) {
    if (i === path.length || path.charCodeAt(i) === 47 /* / */) {
      if (i > start) parts.push(path.slice(start, i))
      start = i + 1
    }
  }
  return parts
}

export class Router<H> {
  /** method -> segment count -> patterns in the order they were added. */
  private readonly table = new Map<string, Array<Array<Compiled<H>>>>()

  add(method: string, pattern: string, handler: H): this {
    const segments = segmentsOf(pattern)
    const names = segments.map((s) => (s.startsWith(":") ? s.slice(1) : null))
    let byLength = this.table.get(method)
    if (byLength === undefined) this.table.set(method, byLength = [])
    ;(byLength[segments.length] ??= []).push({ segments, names, handler })
    return this
  }

  match(method: string, path: string): { readonly handler: H; readonly params: Params } | undefined {
    return this.matchParts(method, segmentsOf(path))
  }

  /** The methods some route serves at `path` (empty: the path is unknown). */
  methodsAt(path: string): ReadonlyArray<string> {
    const parts = segmentsOf(path)
    return [...this.table.keys()].filter((method) => this.matchParts(method, parts) !== undefined)
  }

  private matchParts(
    method: string,
    parts: ReadonlyArray<string>,
  ): { readonly handler: H; readonly params: Params } | undefined {
    const candidates = this.table.get(method)?.[parts.length]
    if (candidates === undefined) return undefined
    outer: for (const c of candidates) {
      let params: Record<string, string> | undefined
      for (let i = 0; i < parts.length; i++) {
        const name = c.names[i]
        if (name === null) {
          if (c.segments[i] !== parts[i]) continue outer
        } else {
          params ??= {}
          const part = parts[i]
          if (part.indexOf("%") === -1) params[name] = part
          else {
            let decoded: string
            try {
              decoded = decodeURIComponent(part)
            } catch {
              continue outer
            }
            // A NUL can name nothing (and no store could hold it): the route does not match.
            if (decoded.includes("\u0000")) continue outer
            params[name] = decoded
          }
        }
      }
      return { handler: c.handler, params: params ?? noParams }
    }
    return undefined
  }
}
