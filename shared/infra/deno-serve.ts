/**
 * Starts a function on Deno. On Supabase the edge runtime owns the port; PORT is honoured for
 * running an entry directly (`deno run`), as the CI smoke test does.
 */
export function serveOnDeno(
  handler: (req: Request, env: { remoteAddr?: string }) => Response | Promise<Response>,
): void {
  // The socket peer goes to the app as its env (clientAddress() reads it).
  const serve = (req: Request, info: Deno.ServeHandlerInfo) =>
    handler(req, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname })
  const port = Deno.env.get('PORT')
  if (port) Deno.serve({ port: Number(port), hostname: '127.0.0.1' }, serve)
  else Deno.serve(serve)
}
