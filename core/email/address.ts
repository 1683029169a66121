/**
 * An address mail can be sent to or from, as a header can carry it without quoting (DECISIONS 8.1): one
 * `local@domain`, the local part a dot-atom of ASCII (no quotes, no display name, no Unicode: SMTPUTF8 is not
 * offered), the domain of at least two labels of letters, digits and hyphens. Nothing in it can end a header line.
 */
const atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
const shape = new RegExp(
  `^${atom}(?:\\.${atom})*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z][A-Za-z0-9-]{0,62}$`,
)

export const isSendableAddress = (s: string): boolean => s.length <= 254 && s.indexOf("@") <= 64 && shape.test(s)
