import { Context, type Effect } from "effect"

/** The platform's own hashing and sealing secret, made once per store and shared by every process. */
export class PlatformSecretRepo extends Context.Tag("ports/PlatformSecretRepo")<PlatformSecretRepo, {
  /** Keeps `candidate` if the store has no secret yet; answers the secret in force. */
  readonly getOrCreate: (candidate: string) => Effect.Effect<string>
}>() {}
