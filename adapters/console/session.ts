/**
 * The console's session and its CSRF tokens (docs/decisions.md, "The console as a web app").
 *
 * A session is a signed cookie, `id.expires.mac`: the mac is the platform's keyed hash over the id, the expiry
 * and the console token's own hash, so a session made under one console token is refused under another and no
 * store is read for it (every process of a deployment accepts it). Sign-out forgets the id in this process until
 * it would have expired anyway. A form's CSRF token is the keyed hash of the session id (before sign-in: of the
 * sign-in cookie's random id), compared in constant time.
 */
import { ConsolePages } from "../../core/limits.ts"

/** The platform's keyed hash and constant-time comparison (the `Secrets` port). */
export interface Keyed {
  readonly hash: (value: string) => string
  readonly equal: (a: string, b: string) => boolean
}

export const cookieNames = {
  session: "console_session",
  signIn: "console_sign_in",
  lang: "console_lang",
} as const

export interface Session {
  readonly id: string
  readonly expiresAt: number
}

/** The cookies of a `Cookie` header, by name (the first of a name wins). */
export const parseCookies = (header: string | undefined): ReadonlyMap<string, string> => {
  const found = new Map<string, string>()
  if (header === undefined) return found
  for (const part of header.split(";")) {
    const eq = part.indexOf("=")
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim()
    if (!found.has(name)) found.set(name, part.slice(eq + 1).trim())
  }
  return found
}

const idPattern = /^[0-9a-f]{32}$/

export const sessions = (keyed: Keyed, consoleTokenHash: string) => {
  const mac = (id: string, expiresAt: number) => keyed.hash(`console-session:${consoleTokenHash}:${id}.${expiresAt}`)
  /** Ids signed out in this process, with when each would have expired. */
  const signedOut = new Map<string, number>()
  const forgetOld = (now: number) => {
    for (const [id, until] of signedOut) if (until <= now) signedOut.delete(id)
  }
  return {
    /** A new session's cookie value, from 16 random bytes. */
    issue: (random: Uint8Array, now: number): { readonly value: string; readonly session: Session } => {
      const id = [...random].map((b) => b.toString(16).padStart(2, "0")).join("")
      const expiresAt = now + ConsolePages.sessionMs
      return { value: `${id}.${expiresAt}.${mac(id, expiresAt)}`, session: { id, expiresAt } }
    },
    /** The session a cookie value names, if it is signed, unexpired at `now` and not signed out. */
    read: (value: string | undefined, now: number): Session | undefined => {
      if (value === undefined) return undefined
      const [id, exp, signature, ...rest] = value.split(".")
      if (rest.length > 0 || id === undefined || exp === undefined || signature === undefined) return undefined
      if (!idPattern.test(id) || !/^\d{1,16}$/.test(exp)) return undefined
      const expiresAt = Number(exp)
      if (!keyed.equal(mac(id, expiresAt), signature)) return undefined
      if (expiresAt <= now || signedOut.has(id)) return undefined
      return { id, expiresAt }
    },
    signOut: (session: Session, now: number) => {
      forgetOld(now)
      signedOut.set(session.id, session.expiresAt)
    },
    /** The CSRF token of the forms of a session (or of the sign-in form, by its cookie's id). */
    csrf: (id: string) => keyed.hash(`console-csrf:${consoleTokenHash}:${id}`),
    csrfMatches: (id: string, presented: string | null) =>
      presented !== null && keyed.equal(keyed.hash(`console-csrf:${consoleTokenHash}:${id}`), presented),
    isId: (id: string | undefined): id is string => id !== undefined && idPattern.test(id),
  }
}

export type Sessions = ReturnType<typeof sessions>

/** A `Set-Cookie` value: HttpOnly and SameSite=Strict always, Secure behind https; no Path (the console's own). */
export const setCookie = (
  name: string,
  value: string,
  options: { readonly secure: boolean; readonly maxAgeSeconds?: number; readonly httpOnly?: boolean },
): string =>
  [
    `${name}=${value}`,
    ...(options.httpOnly === false ? [] : ["HttpOnly"]),
    "SameSite=Strict",
    ...(options.secure ? ["Secure"] : []),
    ...(options.maxAgeSeconds === undefined ? [] : [`Max-Age=${options.maxAgeSeconds}`]),
  ].join("; ")
