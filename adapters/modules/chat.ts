/**
 * Chat: its error codes and key scopes, which keys already hold and the spec already answers with; its
 * repositories, operations and jobs join this module as the product is built.
 */
import { chatErrors } from "../../core/chat/errors.ts"
import { chatScopes } from "../../core/chat/scopes.ts"
import { product } from "../product.ts"

export const chatProduct = product({
  name: "chat",
  errors: chatErrors,
  scopes: chatScopes,
})
