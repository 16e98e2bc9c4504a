/** `npm run supabase:config`: writes supabase/config.toml and each function's deno.json from functions/ and deno.json. */
import { writeFileSync } from 'node:fs'
import { functionImportMaps, renderSupabaseConfig } from './lib/supabase-config.ts'

writeFileSync('supabase/config.toml', renderSupabaseConfig())
console.log('wrote supabase/config.toml')
for (const [path, text] of functionImportMaps()) {
  writeFileSync(path, text)
  console.log(`wrote ${path}`)
}
