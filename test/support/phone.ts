let phoneSeq = Math.floor(Math.random() * 5_000_000)

/** A fresh valid Saudi mobile for each use, so no per-destination hourly cap is ever reached. */
export const phone = () => `+96655${String(1_000_000 + phoneSeq++).slice(-7)}`
