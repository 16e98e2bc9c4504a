/**
 * Starts a function on Deno. On Supabase the edge runtime owns the port; PORT is honoured for
 * running an entry directly (`deno run`), as the CI smoke test does.
 */
export function serveOnDeno(handler: (req: Request) => Response | Promise<Response>): void {
  const port = Deno.env.get('PORT')
  if (port) Deno.serve({ port: Number(port), hostname: '127.0.0.1' }, handler)
  else Deno.serve(handler)
}
