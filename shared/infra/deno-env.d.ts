// The slice of the Deno namespace the function entries use, so `tsc` checks them under Node types too.
declare namespace Deno {
  interface NetAddr {
    transport: 'tcp' | 'udp'
    hostname: string
    port: number
  }
  interface ServeHandlerInfo {
    remoteAddr: NetAddr
  }
  type Handler = (request: Request, info: ServeHandlerInfo) => Response | Promise<Response>
  function serve(handler: Handler): unknown
  function serve(options: { port: number; hostname?: string }, handler: Handler): unknown
  const env: { get(key: string): string | undefined; toObject(): Record<string, string> }
}
