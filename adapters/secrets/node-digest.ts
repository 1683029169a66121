/** The Digest port over `node:crypto` (Node, Deno and Bun all provide it). */
import { createHash } from "node:crypto"
import { Layer } from "effect"
import { Digest } from "../../ports/digest.ts"

export const DigestLive = Layer.succeed(Digest, {
  sha256Hex: (bytes) => createHash("sha256").update(bytes).digest("hex"),
})
