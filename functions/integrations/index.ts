// Supabase Edge Function entry (Deno).
import { serveFunction } from '../../shared/app.ts'
import { serveOnDeno } from '../../shared/deno-serve.ts'
import { createDeps } from '../../shared/runtime.ts'
import { createApp, functionName } from './app.ts'

const deps = await createDeps(Deno.env.toObject())
serveOnDeno(serveFunction(functionName, createApp(deps)))
