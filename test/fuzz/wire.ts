/**
 * A raw HTTP/1.1 client over node:net: the request goes out as the exact bytes given, and the answer is
 * parsed here (status line, header fields, a body framed by Content-Length, chunked coding or the close),
 * so nothing between the fuzz and a server normalizes either side.
 *
 * One `Connection` is one TCP connection used for one request after another (keep-alive); when the server
 * closes it (or says `connection: close`), the next request opens a new one. A request that gets no whole
 * answer (the socket ends or resets first, or nothing arrives in time) is a dropped connection.
 */
import { connect, type Socket } from "node:net"

export interface WireAnswer {
  readonly status: number
  /** Lower-case names, in the order they came; repeated fields stay separate. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Buffer
  /** The server closes the connection after this answer. */
  readonly closes: boolean
}

export interface Dropped {
  readonly dropped: string
  /** What arrived before the connection went away. */
  readonly received: string
}

export type WireResult = WireAnswer | Dropped

export const isDropped = (r: WireResult | { dropped?: string }): r is Dropped =>
  typeof (r as Dropped).dropped === "string"

type Parsed = { readonly answer: WireAnswer; readonly used: number } | "more" | { readonly error: string }

/** Parses one whole answer at the start of `buf`; "more" when it is not whole yet. */
export const parseAnswer = (buf: Buffer, head: boolean, ended: boolean): Parsed => {
  const end = buf.indexOf("\r\n\r\n")
  if (end === -1) return ended ? { error: "the connection ended inside the answer's head" } : "more"
  const lines = buf.subarray(0, end).toString("latin1").split("\r\n")
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0])
  if (m === null) return { error: `not a status line: ${JSON.stringify(lines[0].slice(0, 80))}` }
  const status = Number(m[1])
  const headers: Array<readonly [string, string]> = []
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":")
    if (colon <= 0) return { error: `not a header field: ${JSON.stringify(line.slice(0, 80))}` }
    headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()])
  }
  const get = (name: string) => headers.find(([n]) => n === name)?.[1]
  const closes = (get("connection") ?? "").toLowerCase().split(",").some((t) => t.trim() === "close")
  const start = end + 4
  // No body: HEAD, 1xx, 204, 304.
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { answer: { status, headers, body: Buffer.alloc(0), closes }, used: start }
  }
  const te = get("transfer-encoding")
  if (te !== undefined && te.toLowerCase().includes("chunked")) {
    const chunks: Array<Buffer> = []
    let at = start
    for (;;) {
      const lineEnd = buf.indexOf("\r\n", at)
      if (lineEnd === -1) return ended ? { error: "the connection ended inside a chunk size" } : "more"
      const size = parseInt(buf.subarray(at, lineEnd).toString("latin1").split(";")[0].trim(), 16)
      if (!Number.isFinite(size) || size < 0) return { error: "a bad chunk size" }
      const dataStart = lineEnd + 2
      if (size === 0) {
        // The trailer section ends with an empty line.
        const trailerEnd = buf.indexOf("\r\n", dataStart)
        if (trailerEnd === -1) return ended ? { error: "the connection ended inside the trailer" } : "more"
        if (trailerEnd === dataStart) {
          return { answer: { status, headers, body: Buffer.concat(chunks), closes }, used: dataStart + 2 }
        }
        const blank = buf.indexOf("\r\n\r\n", dataStart)
        if (blank === -1) return ended ? { error: "the connection ended inside the trailer" } : "more"
        return { answer: { status, headers, body: Buffer.concat(chunks), closes }, used: blank + 4 }
      }
      if (buf.length < dataStart + size + 2) return ended ? { error: "the connection ended inside a chunk" } : "more"
      chunks.push(buf.subarray(dataStart, dataStart + size))
      at = dataStart + size + 2
    }
  }
  const cl = get("content-length")
  if (cl !== undefined) {
    const n = Number(cl)
    if (!/^\d+$/.test(cl)) return { error: `a bad content-length: ${cl}` }
    if (buf.length < start + n) return ended ? { error: "the connection ended inside the body" } : "more"
    return { answer: { status, headers, body: buf.subarray(start, start + n), closes }, used: start + n }
  }
  // Delimited by the close.
  if (!ended) return "more"
  return { answer: { status, headers, body: buf.subarray(start), closes: true }, used: buf.length }
}

export interface ConnectionOptions {
  readonly port: number
  readonly host?: string
  /** How long to wait for a whole answer (ms). */
  readonly timeoutMs?: number
}

/** One client connection to a server, opened on demand, for requests one after another. */
export class Connection {
  private socket: Socket | undefined
  private buffer: Buffer = Buffer.alloc(0)
  private ended = false
  private waiter: (() => void) | undefined
  private error: string | undefined

  constructor(private readonly options: ConnectionOptions) {}

  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.options.port, this.options.host ?? "127.0.0.1")
      socket.setNoDelay(true)
      const fail = (e: Error) => reject(e)
      socket.once("error", fail)
      socket.once("connect", () => {
        socket.off("error", fail)
        this.buffer = Buffer.alloc(0)
        this.ended = false
        this.error = undefined
        socket.on("data", (c: Buffer) => {
          this.buffer = this.buffer.length === 0 ? c : Buffer.concat([this.buffer, c])
          this.waiter?.()
        })
        const finish = (why?: string) => {
          this.ended = true
          if (why !== undefined) this.error ??= why
          this.waiter?.()
        }
        socket.on("end", () => finish())
        socket.on("close", () => finish())
        socket.on("error", (e: NodeJS.ErrnoException) => finish(e.code ?? e.message))
        resolve(socket)
      })
    })
  }

  /** Sends the bytes and answers the server's answer, or why none came. `head`: the request's method is HEAD. */
  async send(bytes: Buffer | ReadonlyArray<Buffer>, head: boolean): Promise<WireResult> {
    const reused = this.socket !== undefined && !this.ended && !this.socket.destroyed
    const result = await this.attempt(bytes, head)
    // A kept-alive connection the server closed while idle, before reading anything of this request (the
    // close crossed the request on the wire): the request never reached it, so it goes again on a new one.
    if (reused && isDropped(result) && result.received === "" && !result.dropped.startsWith("no whole answer")) {
      return this.attempt(bytes, head)
    }
    return result
  }

  private async attempt(bytes: Buffer | ReadonlyArray<Buffer>, head: boolean): Promise<WireResult> {
    if (this.socket === undefined || this.ended || this.socket.destroyed) {
      this.socket?.destroy()
      try {
        this.socket = await this.open()
      } catch (e) {
        this.socket = undefined
        return { dropped: `connect: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, received: "" }
      }
    }
    const socket = this.socket
    if (this.buffer.length > 0) {
      const stray = this.buffer.toString("latin1")
      this.close()
      return { dropped: "bytes arrived before the request", received: stray.slice(0, 200) }
    }
    for (const b of Array.isArray(bytes) ? bytes : [bytes as Buffer]) socket.write(b)
    const deadline = Date.now() + (this.options.timeoutMs ?? 10_000)
    for (;;) {
      const parsed = parseAnswer(this.buffer, head, this.ended)
      if (parsed !== "more") {
        if ("error" in parsed) {
          const received = this.buffer.toString("latin1").slice(0, 400)
          this.close()
          return { dropped: this.error ? `${parsed.error} (${this.error})` : parsed.error, received }
        }
        this.buffer = this.buffer.subarray(parsed.used)
        if (parsed.answer.closes || this.ended) this.close()
        else if (this.buffer.length > 0) {
          // More bytes than one answer: a second answer to one request is a fault too.
          const extra = this.buffer.toString("latin1").slice(0, 200)
          this.close()
          return { dropped: "bytes after the answer", received: extra }
        }
        return parsed.answer
      }
      const left = deadline - Date.now()
      if (left <= 0) {
        const received = this.buffer.toString("latin1").slice(0, 400)
        this.close()
        return { dropped: "no whole answer in time", received }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.waiter = undefined
          resolve()
        }, left)
        this.waiter = () => {
          clearTimeout(timer)
          this.waiter = undefined
          resolve()
        }
      })
    }
  }

  close(): void {
    this.socket?.destroy()
    this.socket = undefined
    this.buffer = Buffer.alloc(0)
    this.ended = true
  }
}
