/** A small exact-segment router: `/v1/verify/:id` style patterns, grouped by method and segment count. */

export type Params = Readonly<Record<string, string>>

interface Compiled<H> {
  readonly segments: ReadonlyArray<string>
  readonly names: ReadonlyArray<string | null>
  readonly handler: H
}

export class Router<H> {
  private readonly table = new Map<string, Array<Compiled<H>>>()

  add(method: string, pattern: string, handler: H): this {
    const segments = pattern.split("/").filter((s) => s !== "")
    const names = segments.map((s) => (s.startsWith(":") ? s.slice(1) : null))
    const k = `${method} ${segments.length}`
    const list = this.table.get(k) ?? []
    list.push({ segments, names, handler })
    this.table.set(k, list)
    return this
  }

  match(method: string, path: string): { readonly handler: H; readonly params: Params } | undefined {
    const parts = path.split("/").filter((s) => s !== "")
    const candidates = this.table.get(`${method} ${parts.length}`)
    if (candidates === undefined) return undefined
    outer: for (const c of candidates) {
      let params: Record<string, string> | undefined
      for (let i = 0; i < parts.length; i++) {
        const name = c.names[i]
        if (name === null) {
          if (c.segments[i] !== parts[i]) continue outer
        } else {
          params ??= {}
          try {
            params[name] = decodeURIComponent(parts[i])
          } catch {
            continue outer
          }
        }
      }
      return { handler: c.handler, params: params ?? {} }
    }
    return undefined
  }
}
