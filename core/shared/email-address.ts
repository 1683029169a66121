/**
 * A person's e-mail address as the console and the account API take it: one `@`, a local part of 1 to 64
 * characters without spaces, and a domain of at least two dot-separated labels of letters, digits and
 * hyphens. Deliverability is the mail system's business; this only refuses what cannot be an address.
 */
const shape = /^[^\s@]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}$/

export const isEmailAddress = (s: string): boolean => s.length <= 254 && shape.test(s)
