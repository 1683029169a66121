import { Context, type Effect } from "effect"

/** Randomness and keyed hashing. Codes, keys and tokens are stored only as `hash` output. */
export class Secrets extends Context.Tag("ports/Secrets")<Secrets, {
  readonly randomBytes: (n: number) => Effect.Effect<Uint8Array>
  /** Uniform random decimal digits from a cryptographic source. */
  readonly randomDigits: (n: number) => Effect.Effect<string>
  readonly uuid: Effect.Effect<string>
  /** Keyed hash (HMAC-SHA256 with the platform's secret), hex. Synchronous: it sits on the hot path. */
  readonly hash: (value: string) => string
  /** Constant-time comparison of two hashes. */
  readonly equal: (a: string, b: string) => boolean
  /** Encrypts a secret that must be read back (webhook signing secrets). */
  readonly seal: (plain: string) => string
  readonly unseal: (sealed: string) => string
}>() {}
