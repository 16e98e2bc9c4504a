/** `npm run supabase:config`: writes supabase/config.toml from functions/. */
import { writeFileSync } from 'node:fs'
import { renderSupabaseConfig } from './lib/supabase-config.ts'

writeFileSync('supabase/config.toml', renderSupabaseConfig())
console.log('wrote supabase/config.toml')
