/**
 * The destination parser's cost: `parseSaudiMobile` (libphonenumber-js's parse and mobile metadata, after
 * digit and space normalization) beside the regular expression copied out of the metadata that it replaced,
 * on a mix of inputs people send. Prints microseconds a parse, in alternating slices.
 *
 *   npx tsx bench/phone.ts [--seconds 6]
 */
import { parseArgs } from "node:util"
import { parseSaudiMobile } from "../core/shared/phone.ts"

const { values } = parseArgs({ options: { seconds: { type: "string", default: "6" } } })
const seconds = Number(values.seconds)

const inputs = [
  "+966551234567",
  "0551234567",
  "966551234567",
  "00966551234567",
  "551234567",
  "055-123 4567",
  "\u0660\u0665\u0665\u0661\u0662\u0663\u0664\u0665\u0666\u0667",
  "+966112345678",
  "0551234567\u200e",
]

// The parser before issue 11: the SA mobile pattern copied out of libphonenumber-js's metadata.
const copied = /^(?:579[0-8]\d{5}|5(?:[013-689]\d|7[0-8])\d{6})$/
const shape = /^(?:\+966|00966|966|0)?(\d{9})$/
const before = (input: string) => {
  const national = shape.exec(input.replace(/[ -]/g, ""))?.[1]
  return national !== undefined && copied.test(national) ? `+966${national}` : undefined
}

const time = (f: (s: string) => unknown, ms: number) => {
  let n = 0
  const end = performance.now() + ms
  while (performance.now() < end) {
    for (const input of inputs) f(input)
    n += inputs.length
  }
  return n
}

time(before, 300)
time(parseSaudiMobile, 300)
const slices = 3
let oldN = 0
let newN = 0
for (let i = 0; i < slices; i++) {
  oldN += time(before, (seconds * 1000) / (2 * slices))
  newN += time(parseSaudiMobile, (seconds * 1000) / (2 * slices))
}
const per = (n: number) => ((seconds / 2) * 1e6) / n
console.log(
  `inputs: ${inputs.length} forms (canonical, national, 00966, separators, Arabic-Indic, a landline, a bidi mark)`,
)
console.log(`regex copied from the metadata (before): ${per(oldN).toFixed(2)} µs a parse`)
console.log(`libphonenumber-js parse (now):           ${per(newN).toFixed(2)} µs a parse`)
console.log(
  `a verification costs about 1,500 µs of host CPU (npm run bench -- verify): the parse is ${
    ((100 * per(newN)) / 1500).toFixed(2)
  } % of it`,
)
