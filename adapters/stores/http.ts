/**
 * What the live store-platform adapters share: one JSON GET with a deadline (any failure, non-2xx answer or
 * non-JSON body is `StoreUnreachable`, its message naming the status, never a header), and money in halalas.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Duration, Effect, Option, ParseResult, Schema } from "effect"
import { type Halalas, halalas } from "../../core/shared/brands.ts"
import { type StoreAddress, StoreUnreachable, where } from "../../ports/store-platforms.ts"

export const STORE_API_DEFAULT_TIMEOUT: Duration.DurationInput = "10 seconds"
/** At most this many pages are read of one store's products (a bound on a platform that never ends its list). */
export const STORE_API_MAX_PAGES = 200

/** `amount` (`115`, `115.5`, `"115.50"`) SAR as halalas; none for what is not a non-negative amount. */
export const halalasOfAmount = (amount: unknown): Option.Option<Halalas> => {
  const text = typeof amount === "number" ? (Number.isFinite(amount) ? String(amount) : "") : amount
  if (typeof text !== "string") return Option.none()
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (m === null) return Option.none()
  const fraction = (m[2] ?? "").padEnd(3, "0")
  // Rounded half up at the third decimal: 9.995 → 1000.
  const value = Number(m[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0)
  return Number.isSafeInteger(value) ? Option.some(halalas(value)) : Option.none()
}

/** A GET of `url` answering its JSON decoded by `schema`, else `StoreUnreachable` for `store`. */
export const getJson = <A, I>(
  client: HttpClient.HttpClient,
  store: StoreAddress,
  url: string,
  headers: Readonly<Record<string, string>>,
  schema: Schema.Schema<A, I>,
  timeout: Duration.DurationInput,
): Effect.Effect<A, StoreUnreachable> => {
  const platform = store.platform === "salla" ? "Salla" : "Zid"
  const unreachable = (message: string) => new StoreUnreachable({ ...where(store), message })
  const path = new URL(url).pathname
  return client.execute(
    HttpClientRequest.get(url).pipe(
      HttpClientRequest.acceptJson,
      HttpClientRequest.setHeaders(headers),
    ),
  ).pipe(
    Effect.mapError((e) => unreachable(`${platform} did not answer GET ${path} (${e._tag})`)),
    Effect.flatMap((response) =>
      response.status >= 200 && response.status < 300
        ? Effect.mapError(response.json, () => unreachable(`${platform} answered GET ${path} with no JSON`))
        : Effect.fail(unreachable(`${platform} answered GET ${path} with HTTP ${response.status}`))
    ),
    Effect.flatMap((body) =>
      Effect.mapError(
        Schema.decodeUnknown(schema)(body),
        (e) =>
          unreachable(
            `${platform} answered GET ${path} with an unexpected shape: ${
              ParseResult.TreeFormatter.formatErrorSync(e)
            }`,
          ),
      )
    ),
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () => unreachable(`${platform} gave no answer to GET ${path} within ${Duration.format(timeout)}`),
    }),
  )
}
