/**
 * The Secrets port over `node:crypto` (Node, Deno and Bun all provide it): HMAC-SHA256 keyed by the
 * platform secret, uniform digits from `randomInt`, AES-256-GCM sealing.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  randomUUID,
  timingSafeEqual,
} from "node:crypto"
import { Effect, Layer } from "effect"
import { Secrets } from "../../ports/secrets.ts"
import { PlatformSecretRepo } from "../../ports/store/platform-secret.ts"

export const makeSecrets = (platformSecret: string): Secrets["Type"] => {
  const sealKey = createHash("sha256").update(`seal:${platformSecret}`).digest()
  return {
    randomBytes: (n) => Effect.sync(() => new Uint8Array(randomBytes(n))),
    randomDigits: (n) =>
      Effect.sync(() => {
        let s = ""
        for (let i = 0; i < n; i++) s += String(randomInt(10))
        return s
      }),
    uuid: Effect.sync(() => randomUUID()),
    hash: (value) => createHmac("sha256", platformSecret).update(value).digest("hex"),
    equal: (a, b) => {
      const x = Buffer.from(a)
      const y = Buffer.from(b)
      return x.length === y.length && timingSafeEqual(x, y)
    },
    seal: (plain) => {
      const iv = randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", sealKey, iv)
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`
    },
    unseal: (sealed) => {
      const raw = Buffer.from(sealed.slice(3), "base64")
      const decipher = createDecipheriv("aes-256-gcm", sealKey, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")
    },
  }
}

/** Secrets keyed by the store's platform secret (made on first start). */
export const SecretsLive = Layer.effect(
  Secrets,
  Effect.flatMap(PlatformSecretRepo, (repo) => repo.getOrCreate(randomBytes(32).toString("base64"))).pipe(
    Effect.map(makeSecrets),
  ),
)
