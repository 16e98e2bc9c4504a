// The slice of the Deno namespace the function entries use, so `tsc` checks them under Node types too.
declare namespace Deno {
  type Handler = (request: Request) => Response | Promise<Response>
  function serve(handler: Handler): unknown
  function serve(options: { port: number; hostname?: string }, handler: Handler): unknown
  const env: { get(key: string): string | undefined; toObject(): Record<string, string> }
}
