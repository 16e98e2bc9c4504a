/**
 * `npm run bench [suite ...]`: runs each suite in benchmarks/suites on the embedded database,
 * and again on DATABASE_URL when it is set. Suites print their own comparisons.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const dir = fileURLToPath(new URL('./suites/', import.meta.url))
const wanted = process.argv.slice(2)
const suites = readdirSync(dir)
  .filter((f) => f.endsWith('.ts'))
  .sort()
  // The soak runs for minutes: only when named (`npm run bench soak`).
  .filter((f) => (wanted.length === 0 ? !f.startsWith('soak') : wanted.some((w) => f.includes(w))))

const serverUrl = process.env.DATABASE_URL
const targets: { name: string; url: string | undefined }[] = [{ name: 'embedded PGlite', url: undefined }]
if (serverUrl) targets.push({ name: 'PostgreSQL (DATABASE_URL)', url: serverUrl })

for (const target of targets) {
  // The test harness picks its database from DATABASE_URL; set it per target.
  if (target.url) process.env.DATABASE_URL = target.url
  else delete process.env.DATABASE_URL
  console.log(`\n=== ${target.name} ===`)
  for (const file of suites) {
    const suite = (await import(`${dir}${file}`)) as { default: () => Promise<void> }
    console.log(`\n--- ${file.replace(/\.ts$/, '')} ---`)
    await suite.default()
  }
}
