/**
 * The Bun host runs the Node host as it is: Bun's node:http server over the shared dispatcher. Bun.serve is
 * not used: its parser closes the connection on a method it does not know and answers a header over its
 * limit with a bare 431 before any code of ours runs; Bun's node:http hands both to `clientError`, so they
 * get the same JSON answer as on every other host.
 */
import "./node.ts"
