/** What the wallet's HTTP tests share. */
import type { TestServer } from "../support/server.ts"

/** An account with `balance` halalas and a token of `role`. */
export const accountWithToken = async (s: TestServer, opts: { balance?: number; role?: string } = {}) => {
  const account = await s.console("POST", "/accounts", { name: "Merchant" })
  if ((opts.balance ?? 0) > 0) {
    await s.console("POST", `/accounts/${account.id}/wallet/credit`, { amount_halalas: opts.balance })
  }
  const token = (await s.console("POST", `/accounts/${account.id}/account-tokens`, { role: opts.role ?? "owner" }))
    .token as string
  return { account, token }
}
