/** DKIM key pairs from node:crypto (Node, Deno and Bun): RSA 2048, the size mail receivers expect. */
import { generateKeyPair } from "node:crypto"
import { Effect, Layer } from "effect"
import { type DkimKeyPair, DkimKeys } from "../../ports/dkim.ts"

export const DkimKeysNodeCrypto = Layer.succeed(DkimKeys, {
  make: Effect.async<DkimKeyPair>((resume) => {
    generateKeyPair("rsa", { modulusLength: 2048 }, (error, publicKey, privateKey) => {
      if (error) return resume(Effect.die(error))
      resume(Effect.succeed({
        publicKeyBase64: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
        privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      }))
    })
  }),
})
