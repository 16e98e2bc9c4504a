import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptedLlm, startScriptedLlm } from '../support/assistant-llm.ts'
import { type McpTestServer, startMcpServer } from '../support/mcp-server.ts'

/**
 * Every shell example of README.md and docs/*.md, run as written against `npm start` (its script,
 * on other ports and a throwaway data folder). The commands come from the Markdown's own code
 * blocks, so an edit that breaks one, or a change of the platform that makes a commented status
 * false, fails here.
 *
 * Conventions the blocks follow (and this test reads; CONTRIBUTING.md, "Shell examples"):
 * - `# NNN [CODE]` at the end of a curl command is the status (and error code) it answers; every
 *   curl command that starts a line carries one.
 * - `# -> {…"key":"<prefix>…"}` after an `export NAME=$(…)` says the exported key starts with that
 *   prefix; every `export NAME=$(…)` must leave NAME set (not empty, not `undefined`).
 * - The README's first session runs first; the blocks of each page then run in order in one shell
 *   that has its variables ($API, $TOKEN, $KEY, $TOOL_KEY), as a reader who followed it has.
 * - `<!-- not run: <reason> -->` on the line before a block leaves it out: for what this test
 *   cannot have (a Supabase project, the whole test suite). The reason is required.
 * - What a reader brings (their OpenAI key, their MCP server) the page names as a variable; this
 *   test sets it to a loopback stand-in: OPENAI_API_KEY for the scripted model that the platform
 *   reaches through OPENAI_BASE_URL, MCP_URL and MCP_TOKEN for the reference MCP server.
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

/** A fenced shell block of a Markdown file, with where it is and whether it is marked not run. */
interface ShellBlock {
  file: string
  line: number
  code: string
  /** The reason given in `<!-- not run: … -->` before it; undefined when it runs. */
  notRun?: string
}

const SHELL_FENCE = /^```(bash|sh|shell|console)\s*$/
const NOT_RUN = /^<!--\s*not run:(.*?)-->\s*$/

/** The shell blocks of one Markdown file, in order. */
function shellBlocks(file: string, text: string): ShellBlock[] {
  const lines = text.split('\n')
  const blocks: ShellBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'))
    if (SHELL_FENCE.test(lines[i]!)) {
      let before = i - 1
      while (before >= 0 && lines[before]!.trim() === '') before--
      const mark = before >= 0 ? lines[before]!.match(NOT_RUN) : null
      blocks.push({
        file,
        line: i + 1,
        code: lines.slice(i + 1, end).join('\n'),
        ...(mark && { notRun: mark[1]!.trim() }),
      })
    }
    i = end
  }
  return blocks
}

const markdownFiles = (): string[] => [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
]

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
    if (exported) {
      lastExport = exported[1]
      const name = exported[1]
      // An answer the command substitution could not read leaves it empty or `undefined`.
      return `${line}\nif [ -z "$${name}" ] || [ "$${name}" = undefined ]; then echo "__failed: export ${name} left it "$${name}""; exit 1; fi`
    }
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
  const unchecked = lines.filter((l) => /^curl\s/.test(l) && !STATUS_COMMENT.test(l))
  const epilogue = exports.map((name) => `echo "__env ${name}=$${name}"`).join('\n')
  return { script: `${prelude}${script.join('\n')}\n${epilogue}\n`, checks, keyPrefixes, exports, unchecked }
}

const blocksByFile = markdownFiles().map((file) => ({
  file,
  blocks: shellBlocks(file, readFileSync(file, 'utf8')),
}))
const readmeBlocks = blocksByFile.find((f) => f.file === 'README.md')!.blocks
const firstSessionAt = readFileSync('README.md', 'utf8').split('\n').indexOf('### A first session') + 1
const firstSession = readmeBlocks.find((b) => b.line > firstSessionAt && !b.notRun)
/** The runnable blocks of each page, the first session apart. */
const pages = blocksByFile
  .map(({ file, blocks }) => ({ file, blocks: blocks.filter((b) => !b.notRun && b !== firstSession) }))
  .filter((p) => p.blocks.length > 0)

let llm: ScriptedLlm | undefined
let mcp: McpTestServer | undefined
const MCP_TOKEN = 'docs-example-mcp-token-0123456789'
/** The first session's variables, which every later block may use. */
let sessionEnv: Record<string, string> = {}

beforeAll(async () => {
  if (process.env.DATABASE_URL) return
  ;[llm, mcp] = await Promise.all([
    startScriptedLlm(),
    startMcpServer({ transport: 'streamableHttp', auth: { type: 'bearer', token: MCP_TOKEN } }),
  ])
  llm.script = [{ text: 'You have no sites yet.' }]
  const [port, dbPort] = [await freePort(), await freePort()]
  child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'local-platform/start.ts',
      '--memory',
      '--port',
      String(port),
      '--db-port',
      String(dbPort),
    ],
    {
      env: { ...process.env, PLATFORM_DATA_DIR: dir, LOG_FORMAT: 'json', OPENAI_BASE_URL: llm.openaiBaseUrl },
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

afterAll(async () => {
  child?.kill('SIGTERM')
  await Promise.all([llm?.close(), mcp?.close()])
  rmSync(dir, { recursive: true, force: true })
})

/** Runs blocks as one script in the given environment; returns the checks made and the variables exported. */
async function runBlocks(what: string, code: string, env: Record<string, string>) {
  const instrumented = instrument(code.replaceAll(README_ORIGIN, base))
  expect(instrumented.unchecked, `${what}: curl commands without a "# NNN" status comment`).toEqual([])
  const { stdout } = await run('bash', ['-c', instrumented.script], {
    env: { ...process.env, PLATFORM_DATA_DIR: dir, ...env },
    timeout: 90_000,
  }).catch((err: { stdout?: string; stderr?: string }) => {
    throw new Error(`${what} failed:\n${err.stdout}\n${err.stderr}`)
  })
  const checked = stdout.split('\n').filter((l) => l.startsWith('__checked '))
  expect(
    checked.map((l) => Number(l.split(' ')[1])),
    what,
  ).toEqual(instrumented.checks.map((c) => c.status))
  const exported = Object.fromEntries(
    stdout
      .split('\n')
      .filter((l) => l.startsWith('__env '))
      .map((l) => l.slice('__env '.length).split(/=(.*)/s).slice(0, 2) as [string, string]),
  )
  return { ...instrumented, exported }
}

describe.skipIf(process.env.DATABASE_URL)('the README and docs shell examples', () => {
  it("the README's first session runs as written, and every commented answer is the one it gets", async () => {
    expect(firstSession, 'a bash block under "### A first session"').toBeDefined()
    const block = firstSession!.code
    const { checks, keyPrefixes, exports, exported } = await runBlocks('the first session', block, {})
    // The block teaches both kinds of key and an MCP call; the checks below cover them.
    expect(checks.length).toBeGreaterThanOrEqual(6)
    expect(block).toContain('"kind":"tool_server"')
    expect(block).toMatch(/\/mcp /)
    for (const name of exports) expect(exported[name], name).toBeTruthy()
    expect(keyPrefixes.size).toBeGreaterThanOrEqual(2)
    for (const [name, prefix] of keyPrefixes) expect(exported[name], name).toMatch(new RegExp(`^${prefix}`))
    sessionEnv = exported
  }, 120_000)

  for (const page of pages) {
    it(`${page.file}: its shell examples run as written, after the first session`, async () => {
      expect(sessionEnv.TOKEN, 'the first session ran').toBeTruthy()
      const code = page.blocks.map((b) => `# ${page.file}:${b.line}\n${b.code}`).join('\n')
      const { keyPrefixes, exported } = await runBlocks(page.file, code, {
        ...sessionEnv,
        OPENAI_API_KEY: llm!.key,
        MCP_URL: mcp!.url,
        MCP_TOKEN,
      })
      for (const [name, prefix] of keyPrefixes) expect(exported[name], name).toMatch(new RegExp(`^${prefix}`))
      // The assistant's example reached the model (a 200 stream alone would also start for a turn that fails).
      if (code.includes('/v1/assistant/conversations/$ID/messages'))
        expect(llm!.requests.some((r) => r.body.messages?.at(-1)?.content === 'List my sites')).toBe(true)
    }, 120_000)
  }

  it('prints at start-up that loopback and http targets are allowed locally', () => {
    expect(startOutput).toMatch(/outbound\s+loopback \(127\.0\.0\.1\) and plain http targets allowed/)
  })
})

describe('the shell examples of the README and docs', () => {
  it('are each run by this test or marked with the reason they are not', () => {
    const all = blocksByFile.flatMap((f) => f.blocks)
    expect(all.filter((b) => b.notRun === '').map((b) => `${b.file}:${b.line}`)).toEqual([])
    // The assistant example and the tool server's are among those run.
    const ran = pages.flatMap((p) => p.blocks.map((b) => b.code)).join('\n')
    expect(ran).toContain('/v1/assistant/conversations')
    expect(ran).toContain('/mcp ')
    expect(pages.map((p) => p.file)).toEqual(expect.arrayContaining(['README.md', 'docs/mcp.md']))
  })

  it('reads a not-run mark only on the line before a block', () => {
    const text =
      'x\n<!-- not run: needs a Supabase project -->\n\n```bash\nsupabase db push\n```\n```sh\nls\n```\n'
    expect(shellBlocks('t.md', text)).toEqual([
      { file: 't.md', line: 4, code: 'supabase db push', notRun: 'needs a Supabase project' },
      { file: 't.md', line: 7, code: 'ls' },
    ])
  })
})

describe('the README and docs stand alone', () => {
  it('point to nothing outside the repository and to no spec it does not hold', async () => {
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
