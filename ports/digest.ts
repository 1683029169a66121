import { Context } from "effect"

/** Content hashes (the platform's keyed hash is `Secrets.hash`; this one is plain, for content addressing). */
export class Digest extends Context.Tag("ports/Digest")<Digest, {
  /** Lower-case hex SHA-256 of the bytes. Synchronous: a hash of at most a logo's 512 KiB. */
  readonly sha256Hex: (bytes: Uint8Array) => string
}>() {}
