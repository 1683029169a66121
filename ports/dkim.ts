import { Context, type Effect } from "effect"

/** A sender domain's DKIM key pair: the public key as DNS publishes it, the private key (PKCS#8 PEM) to sign with. */
export interface DkimKeyPair {
  /** The SubjectPublicKeyInfo, DER, base64 (the `p=` of the DKIM record). */
  readonly publicKeyBase64: string
  readonly privateKeyPem: string
}

/** Makes a new RSA key pair for a sender domain (DECISIONS 8.2's `dkim` record). */
export class DkimKeys extends Context.Tag("ports/DkimKeys")<DkimKeys, {
  readonly make: Effect.Effect<DkimKeyPair>
}>() {}
