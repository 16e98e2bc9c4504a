import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** supabase/migrations.sha256, in `sha256sum` format: `cd migrations && sha256sum -c ../supabase/migrations.sha256`. */
export const sealsFile = fileURLToPath(new URL('../../supabase/migrations.sha256', import.meta.url))

/** File name -> recorded SHA-256 (hex). */
export function readSeals(text = readFileSync(sealsFile, 'utf8')): Map<string, string> {
  const seals = new Map<string, string>()
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line)
    if (m) seals.set(m[2]!, m[1]!)
  }
  return seals
}
