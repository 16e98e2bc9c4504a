import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The README's first session, run as written against `npm start` (its script, on other ports and
 * a throwaway data folder). The commands come from the README's own code block, so an edit that
 * breaks one, or a change of the platform that makes a commented status false, fails here.
 *
 * Conventions the block follows (and this test reads): `# NNN [CODE]` at the end of a curl
 * command is the status (and error code) it answers; `# -> {…"key":"<prefix>…"}` after an
 * `export NAME=$(…)` says the exported key starts with that prefix.
 */
const run = promisify(execFile)
const README_ORIGIN = 'http://127.0.0.1:54321'
const dir = mkdtempSync(join(tmpdir(), 'platform-readme-'))
let child: ChildProcess | undefined
let base = ''
let startOutput = ''

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** The first ```bash block under a README heading. */
function codeBlockUnder(readme: string, heading: string): string {
  const at = readme.indexOf(`\n${heading}\n`)
  if (at < 0) throw new Error(`README has no heading ${heading}`)
  const match = readme.slice(at).match(/```bash\n([\s\S]*?)```/)
  if (!match) throw new Error(`no bash block under ${heading}`)
  return match[1]!
}

/** Commands as bash reads them: lines ending in a backslash continue on the next. */
function logicalLines(block: string): string[] {
  const out: string[] = []
  let current = ''
  for (const line of block.split('\n')) {
    current += current ? `\n${line}` : line
    if (!line.endsWith('\\')) {
      out.push(current)
      current = ''
    }
  }
  if (current) out.push(current)
  return out
}

const STATUS_COMMENT = /\s#\s+(\d{3})(?:\s+([A-Z_]+))?\s*$/

/** The block as a script that checks each commented status, and what it promises. */
function instrument(block: string) {
  const lines = logicalLines(block)
  const checks: { status: number; code?: string }[] = []
  const keyPrefixes = new Map<string, string>()
  let lastExport: string | undefined
  const script = lines.map((line) => {
    const exported = line.match(/^export (\w+)=\$\(/)
    if (exported) lastExport = exported[1]
    const promised = line.match(/^# -> .*"key":"([a-z_]+_)…/)
    if (promised && lastExport) keyPrefixes.set(lastExport, promised[1]!)
    const status = line.match(STATUS_COMMENT)
    if (!status || !line.startsWith('curl ')) return line
    checks.push({ status: Number(status[1]), code: status[2] })
    return `__check ${status[1]} '${status[2] ?? ''}' ${line.replace(STATUS_COMMENT, '')}`
  })
  const prelude = `set -e
__check() {
  local want=$1 code=$2; shift 2
  local out; out=$("$@" -w '\\n%{http_code}')
  local status=\${out##*$'\\n'} body=\${out%$'\\n'*}
  if [ "$status" != "$want" ]; then echo "__failed: $* answered $status, not $want: $body"; exit 1; fi
  if [ -n "$code" ] && [[ "$body" != *"\\"code\\":\\"$code\\""* ]]; then echo "__failed: $* answered no code $code: $body"; exit 1; fi
  echo "__checked $want $code"
}
`
  const exports = [...new Set(lines.flatMap((l) => l.match(/^export (\w+)=/)?.[1] ?? []))]
  const epilogue = exports.map((name) => `echo "__env ${name}=$${name}"`).join('\n')
  return { script: `${prelude}${script.join('\n')}\n${epilogue}\n`, checks, keyPrefixes, exports }
}

beforeAll(async () => {
  if (process.env.DATABASE_URL) return
  const [port, dbPort] = [await freePort(), await freePort()]
  child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/start.ts', '--memory', '--port', String(port), '--db-port', String(dbPort)],
    {
      env: { ...process.env, PLATFORM_DATA_DIR: dir, LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const collect = (d: Buffer) => {
    startOutput += d
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  await new Promise<void>((resolve, reject) => {
    const check = () => (startOutput.includes('export TOKEN=') ? resolve() : undefined)
    child!.stdout!.on('data', check)
    child!.on('exit', (code) => reject(new Error(`npm start exited (${code}): ${startOutput}`)))
  })
  base = `http://127.0.0.1:${port}`
}, 120_000)

afterAll(() => {
  child?.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(process.env.DATABASE_URL)("the README's first session", () => {
  it('runs as written against npm start, and every commented answer is the one it gets', async () => {
    const readme = readFileSync('README.md', 'utf8')
    const block = codeBlockUnder(readme, '### A first session')
    const { script, checks, keyPrefixes, exports } = instrument(block.replaceAll(README_ORIGIN, base))
    // The block teaches both kinds of key and an MCP call; the checks below cover them.
    expect(checks.length).toBeGreaterThanOrEqual(6)
    expect(block).toContain('"kind":"tool_server"')
    expect(block).toMatch(/\/mcp /)
    const { stdout } = await run('bash', ['-c', script], {
      env: { ...process.env, PLATFORM_DATA_DIR: dir },
      timeout: 90_000,
    }).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`the first session failed:\n${err.stdout}\n${err.stderr}`)
    })
    const checked = stdout.split('\n').filter((l) => l.startsWith('__checked '))
    expect(checked.map((l) => Number(l.split(' ')[1]))).toEqual(checks.map((c) => c.status))
    const env = Object.fromEntries(
      stdout
        .split('\n')
        .filter((l) => l.startsWith('__env '))
        .map((l) => l.slice('__env '.length).split(/=(.*)/s).slice(0, 2) as [string, string]),
    )
    for (const name of exports) expect(env[name], name).toBeTruthy()
    expect(keyPrefixes.size).toBeGreaterThanOrEqual(2)
    for (const [name, prefix] of keyPrefixes) expect(env[name], name).toMatch(new RegExp(`^${prefix}`))
  }, 120_000)

  it('prints at start-up that loopback and http targets are allowed locally', () => {
    expect(startOutput).toMatch(/outbound\s+loopback \(127\.0\.0\.1\) and plain http targets allowed/)
  })
})

describe('the README and docs stand alone', () => {
  it('point to nothing outside the repository and to no spec it does not hold', async () => {
    const { readdirSync } = await import('node:fs')
    const files = [
      'README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
      ...readdirSync('docs/adr').map((f) => `docs/adr/${f}`),
    ]
    const outside: string[] = []
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // `../shared/` beside the repository (a code path such as `../../shared/infra` is inside it).
          if (/(^|[^./])\.\.\/shared\b/.test(line) || /\bthe spec\b|\bspec's\b|service-spec/i.test(line))
            outside.push(`${file}:${i + 1}: ${line.trim()}`)
        })
    }
    expect(outside).toEqual([])
  })
})
