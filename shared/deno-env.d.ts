// The slice of the Deno namespace the function entries use, so `tsc` checks them under Node types too.
declare namespace Deno {
  function serve(handler: (request: Request) => Response | Promise<Response>): unknown
  const env: { get(key: string): string | undefined; toObject(): Record<string, string> }
}
