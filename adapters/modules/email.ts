/**
 * Email: its error codes and key scopes, which keys already hold and the spec already answers with; its
 * repositories, operations and jobs join this module as the product is built.
 */
import { emailErrors } from "../../core/email/errors.ts"
import { emailScopes } from "../../core/email/scopes.ts"
import { product } from "../product.ts"

export const emailProduct = product({
  name: "email",
  errors: emailErrors,
  scopes: emailScopes,
})
