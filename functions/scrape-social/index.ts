// Supabase Edge Function entry (Deno).

import { createDeps } from '@shared/infra/create-deps.ts'
import { serveOnDeno } from '@shared/infra/deno-serve.ts'
import { createApp } from './app.ts'

const deps = await createDeps(Deno.env.toObject())
serveOnDeno(createApp(deps).fetch)
