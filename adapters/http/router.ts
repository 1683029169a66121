/** A small exact-segment router: `/v1/verify/:id` style patterns, grouped by method and segment count. */

export type Params = Readonly<Record<string, string>>

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
    const parts = segmentsOf(path)
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
            try {
              params[name] = decodeURIComponent(part)
            } catch {
              continue outer
            }
          }
        }
      }
      return { handler: c.handler, params: params ?? noParams }
    }
    return undefined
  }
}
