// Supabase Edge Function entry (Deno).
import { serveFunction } from '../../shared/app.ts'
import { createDeps } from '../../shared/runtime.ts'
import { createApp, functionName } from './app.ts'

const deps = await createDeps(Deno.env.toObject())
Deno.serve(serveFunction(functionName, createApp(deps)))
