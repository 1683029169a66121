/** The web-standard handler `(Request) => Promise<Response>` over the shared dispatcher. */
import type { Dispatch } from "./dispatcher.ts"

export const webHandler =
  (dispatch: Dispatch, options: { readonly prefix?: string } = {}) =>
  async (request: Request, ip?: string): Promise<Response> => {
    const url = new URL(request.url)
    let path = url.pathname
    if (options.prefix && path.startsWith(options.prefix)) path = path.slice(options.prefix.length) || "/"
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text()
    const res = await dispatch({
      method: request.method,
      url: path + url.search,
      headers: (name) => request.headers.get(name) ?? undefined,
      body,
      ip: ip ?? request.headers.get("x-forwarded-for")?.split(",")[0]?.trim(),
    })
    return new Response(res.body, { status: res.status, headers: res.headers })
  }
