/**
 * The store assistant's operations (DECISIONS 9.5, 10): the console connects a store and sets the assistant's
 * tools; the account API lists stores, refreshes a store's templates and reads the assistant store.
 */
import { Schema } from "effect"
import { everyRole, ownerOrAdmin } from "../accounts/callers.ts"
import { Next } from "../accounts/errors.ts"
import { decodeQuery, listParameters, ListQuery, PageOf } from "../accounts/lists.ts"
import { applicationParameter, consoleCaller, consoleCreated, consoleDone } from "../console/operations.ts"
import { InvalidRequest, NotFound } from "../errors.ts"
import { Stores as Limits } from "../limits.ts"
import { NoWhatsappNumber, TemplatesUnavailable } from "../notifications/errors.ts"
import { TemplateOutput } from "../notifications/operations.ts"
import { concretePath } from "../pipeline/account.ts"
import { type AnyOperation, operation, type Parameter } from "../pipeline/operation.ts"
import { consoleBody, Text } from "../shared/fields.ts"
import { StorePlatformUnreachable } from "./errors.ts"
import {
  AssistantStoreOutput,
  Platform,
  platformParameter,
  StoreOutput,
  StoreRef,
  ToolsOutput,
} from "./store-fields.ts"
import { ChatStores } from "./stores.ts"

const storeParameter: Parameter = {
  name: "store",
  in: "path",
  description: "A store id, listable with `stores.list`",
  schema: Schema.UUID,
  required: true,
}

const RefreshOutput = Schema.Struct({
  data: Schema.Struct({
    store_id: Schema.UUID,
    templates: Schema.Array(TemplateOutput),
    refreshed_at: Schema.String,
  }),
  next: Next.annotations({ description: "`stores.list`: read the store again" }),
}).annotations({ identifier: "StoreTemplatesRefreshed" })

const refreshName = "stores.templates.refresh"
const refreshPath = "/v1/stores/{platform}/{store}/templates/refresh"

export const storesOperations = [
  operation({
    name: "stores.list",
    summary: "The account's connected online stores, oldest connection first.",
    returns: "A page of stores: id, platform, ref, name, application_id.",
    method: "GET",
    path: "/v1/stores",
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: listParameters,
    body: undefined,
    decode: decodeQuery(ListQuery),
    output: PageOf(StoreOutput),
    errors: [],
    idempotent: false,
    service: ChatStores,
    run: (s, p, q: typeof ListQuery.Type) => s.list(p, q),
  }),
  operation({
    name: refreshName,
    summary: "Re-reads the templates of the number of the store's application from the chat network, after an " +
      "approval or a rejection.",
    returns: "{ data: { store_id, templates, refreshed_at }, next }: next is stores.list, to read the store again; " +
      "templates_unavailable (with next, the same call) when the network did not answer.",
    method: "POST",
    path: refreshPath,
    caller: ownerOrAdmin,
    // `next` sits beside `data`: the use case answers the whole body.
    answer: { status: 200, envelope: "bare" },
    parameters: [platformParameter, storeParameter],
    body: Schema.Struct({}),
    output: RefreshOutput,
    errors: [NotFound, InvalidRequest, NoWhatsappNumber, TemplatesUnavailable],
    idempotent: true,
    service: ChatStores,
    locate: (s, p, params) => s.located(p, params.platform ?? "", params.store ?? ""),
    run: (s, p, input) =>
      s.refresh(p, input.params.platform, input.params.store, {
        baseUrl: input.raw.baseUrl,
        again: { operation: refreshName, method: "POST", path: concretePath(refreshPath, input.params) },
      }),
  }),
  operation({
    name: "assistant.store.show",
    summary: "The assistant store read: whether a store is connected, its first 50 products and when they were " +
      "last read, and which store tools are on.",
    returns: "{ connected, store: { id, platform, name, url } or null, products (the first 50: id, name, " +
      "price_halalas (not for agents), available), products_total, products_read_at, tools: { orders, " +
      "order_status, products } }.",
    method: "GET",
    path: "/v1/applications/{application}/assistant/store",
    caller: everyRole,
    answer: { status: 200, envelope: "data" },
    parameters: [{ ...applicationParameter, description: "An application of the token's account" }],
    body: undefined,
    output: AssistantStoreOutput,
    errors: [],
    idempotent: false,
    service: ChatStores,
    run: (s, p, input) => s.show(p, input.params.application),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

export const storesConsoleOperations = [
  operation({
    name: "console.stores.connect",
    summary: "Connects an online store to an application for its assistant, reading the store at once; it " +
      "replaces the store the application held. `token`: the merchant's access token on a live platform, kept " +
      "sealed and never answered.",
    method: "POST",
    path: "/console/v1/applications/{application}/stores",
    caller: consoleCaller,
    answer: consoleCreated,
    parameters: [applicationParameter],
    body: consoleBody({
      platform: Platform,
      ref: StoreRef,
      token: Schema.optional(Text(Limits.tokenMax)),
    }),
    output: Schema.Struct({ id: Schema.UUID, platform: Platform, ref: Schema.String, name: Schema.String }),
    errors: [NotFound, InvalidRequest, StorePlatformUnreachable],
    idempotent: false,
    service: ChatStores,
    run: (s, _, input) => s.connect(input.params.application, input.body),
  }),
  operation({
    name: "console.assistant.put",
    summary: "Switches the assistant's store tools on or off (tools not given keep their state; all start on).",
    method: "PUT",
    path: "/console/v1/applications/{application}/assistant",
    caller: consoleCaller,
    answer: consoleDone,
    parameters: [applicationParameter],
    body: consoleBody({
      tools: Schema.partial(ToolsOutput).annotations({ identifier: "AssistantToolsInput" }),
    }),
    output: AssistantStoreOutput,
    errors: [NotFound, InvalidRequest],
    idempotent: false,
    service: ChatStores,
    run: (s, _, input) => s.setTools(input.params.application, input.body.tools),
  }),
] as const satisfies ReadonlyArray<AnyOperation>
