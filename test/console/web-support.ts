/** Helpers of the console's page tests over plain HTTP: cookies, forms, CSRF tokens and signing in. */
import { expect } from "vitest"

/** The `name=value` of a response's `Set-Cookie`. */
export const cookieOf = (r: Response): string | undefined => r.headers.get("set-cookie")?.split(";")[0]

export const csrfOf = (page: string): string => {
  const found = /name="_csrf" value="([^"]+)"/.exec(page)
  if (found === null) throw new Error("no CSRF token in the page")
  return found[1]
}

export const form = (fields: Record<string, string>) => ({
  "content-type": "application/x-www-form-urlencoded",
  body: new URLSearchParams(fields).toString(),
})

export interface Browserless {
  readonly get: (path: string, headers?: Record<string, string>) => Promise<Response>
  readonly post: (path: string, fields: Record<string, string>, headers?: Record<string, string>) => Promise<Response>
  /** The session cookie (`name=value`). */
  readonly session: string
  /** The CSRF token of the session's forms. */
  readonly csrf: string
}

/** Signs in with `token` as a browser would (the sign-in page, its cookie and CSRF token), and keeps the session. */
export const signIn = async (baseUrl: string, token: string, prefix = ""): Promise<Browserless> => {
  const page = await fetch(`${baseUrl}${prefix}/console/sign-in`)
  expect(page.status).toBe(200)
  const pre = cookieOf(page)!
  const answer = await fetch(`${baseUrl}${prefix}/console/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: pre, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: csrfOf(await page.text()), token }).toString(),
  })
  expect(answer.status).toBe(303)
  const session = cookieOf(answer)!
  expect(session).toMatch(/^console_session=/)
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${prefix}${path}`, { redirect: "manual", headers: { cookie: session, ...headers } })
  const home = await get("/console")
  const csrf = csrfOf(await home.text())
  return {
    session,
    csrf,
    get,
    post: (path, fields, headers = {}) =>
      fetch(`${baseUrl}${prefix}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: session, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields).toString(),
      }),
  }
}
