import { Effect, Layer } from "effect"
import { PlatformSecretRepo } from "../../ports/store/platform-secret.ts"

export const MemoryPlatformSecret = Layer.sync(PlatformSecretRepo, () => {
  let secret: string | undefined
  return { getOrCreate: (candidate: string) => Effect.sync(() => (secret ??= candidate)) }
})
