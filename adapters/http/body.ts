/** The request-body rules every way in applies alike (the reading itself is each runtime's own). */
import { Http } from "../../core/limits.ts"

/** GET and HEAD carry no body: nothing is read. */
export const carriesBody = (method: string): boolean => method !== "GET" && method !== "HEAD"

/** A declared `Content-Length` over `Http.maxBodyBytes`: refused before anything is read. */
export const declaredTooLarge = (contentLength: string | null | undefined): boolean =>
  Number(contentLength) > Http.maxBodyBytes
