/** Helpers for Chat's connected-app operations over HTTP on the in-process test server. */
import { setupApplication, type TestServer } from "../support/server.ts"

/** An approved application and a connected app's key holding `scopes`, named `appName`. */
export const setupConnectedApp = async (
  s: TestServer,
  opts: { scopes?: ReadonlyArray<string>; appName?: string; approved?: boolean } = {},
) => {
  const made = await setupApplication(s, { approved: opts.approved })
  const key = await connectedKey(s, made.app.id, opts)
  return { ...made, appKey: key }
}

/** Another connected app's key on the same application. */
export const connectedKey = async (
  s: TestServer,
  applicationId: string,
  opts: { scopes?: ReadonlyArray<string>; appName?: string } = {},
): Promise<string> =>
  (await s.console("POST", `/applications/${applicationId}/connected-app-keys`, {
    app_name: opts.appName ?? "Menus app",
    scopes: opts.scopes ?? ["chat:menus", "chat:attendant"],
  })).key as string

/** A menu with no problem: a greeting, an answer, a nested menu and a team choice. */
export const goodMenu = () => ({
  greeting: "Welcome to the shop",
  choices: [
    { id: "hours", title: "Opening hours", action: { type: "answer", text: "9 to 5, Sunday to Thursday" } },
    {
      id: "orders",
      title: "Orders",
      description: "Where is my order?",
      action: { type: "menu", choices: [{ id: "late", title: "It is late", action: { type: "team" } }] },
    },
    { id: "talk", title: "Talk to us", action: { type: "team" } },
  ],
})

/** The account's audit entries, newest first, through an account token. */
export const auditOf = async (s: TestServer, accountId: string): Promise<ReadonlyArray<any>> => {
  const token = await s.console("POST", `/accounts/${accountId}/account-tokens`, {})
  const res = await s.call("GET", "/v1/account/audit?limit=100", { key: token.token })
  if (res.status !== 200) throw new Error(`audit: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}
