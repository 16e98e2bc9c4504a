// Supabase Edge Function entry (Deno).
import { serveOnDeno } from '../../shared/deno-serve.ts'
import { createDeps } from '../../shared/runtime.ts'
import { createApp } from './app.ts'

const deps = await createDeps(Deno.env.toObject())
serveOnDeno(createApp(deps).fetch)
