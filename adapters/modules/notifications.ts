/**
 * Notifications: its error codes and key scopes, which keys already hold and the spec already answers with; its
 * repositories, operations and jobs join this module as the product is built.
 */
import { notificationsErrors } from "../../core/notifications/errors.ts"
import { notificationsScopes } from "../../core/notifications/scopes.ts"
import { product } from "../product.ts"

export const notificationsProduct = product({
  name: "notifications",
  errors: notificationsErrors,
  scopes: notificationsScopes,
})
