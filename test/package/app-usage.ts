/**
 * What the packaged apps of test/package do with the platform once it serves (their source, as text): a Verify
 * round trip through the SMS simulator, and an Arabic buyer's proforma as a PDF (the package's fonts were
 * installed with it, DECISIONS 18); then they print the answers' statuses as one JSON line. The app defines
 * `call(method, path, body, key?)`, `to`, `base` and `settings` before it.
 */
export const appUsage = `const started = await call("POST", "/v1/verify/start", { to })
const sms = await call("GET", \`/console/v1/simulator/sms?to=\${encodeURIComponent(to)}\`, undefined, settings.consoleToken)
const code: string = /\\b\\d{4,8}\\b/.exec(sms.data[0].text)![0]
const checked = await call("POST", "/v1/verify/check", { id: started.id, code })
// A proforma for an Arabic buyer as a PDF: the package's fonts were installed with it (DECISIONS 18).
const account = await call("POST", "/console/v1/accounts", { name: "Merchant" }, settings.consoleToken)
const owner = await call("POST", \`/console/v1/accounts/\${account.data.id}/account-tokens\`, { role: "owner" }, settings.consoleToken)
const buyer = { name: "مؤسسة النور للتجارة" }
const proforma = await call("POST", "/v1/account/wallet/proformas", { amount_halalas: 10000, buyer }, owner.data.token)
const pdf = await fetch(base + \`/v1/account/wallet/proformas/\${proforma.data.id}/pdf\`, {
  headers: { authorization: \`Bearer \${owner.data.token}\` },
})
const magic = new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).slice(0, 5))
console.log(JSON.stringify({ started: started.status, checked: checked.status, pdf: [pdf.status, pdf.headers.get("content-type"), magic] }))
`
