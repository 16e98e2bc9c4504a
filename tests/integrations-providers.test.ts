import { readdirSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FunctionDeps } from '../shared/infra/deps.ts'
import { createGuardedFetch, defaultOutboundPolicy } from '../shared/infra/outbound.ts'
import {
  catalog,
  oauthProviderBySlug,
  oauthProviders,
  toolImplementation,
} from '../shared/services/integrations/catalog.ts'
import {
  ProviderAuthError,
  ProviderError,
  providerApi,
} from '../shared/services/integrations/providers/api.ts'
import type { ProviderDefinition } from '../shared/services/integrations/providers/provider.ts'

/**
 * The catalog is an index of the provider modules (shared/services/integrations/providers/). A
 * module left out of the index would carry implementations no catalog entry offers; a catalog
 * tool without an implementation would be listed and then fail every call.
 */

const providersDir = fileURLToPath(new URL('../shared/services/integrations/providers/', import.meta.url))
/** The files of the directory that are not provider modules. */
const notProviders = new Set(['provider.ts', 'api.ts', 'google.ts', 'mcp-servers.ts'])

describe('provider modules and the catalog', () => {
  it('every catalog tool of an OAuth integration has an implementation, and MCP types have none', () => {
    const names = catalog.flatMap((e) => e.tools.map((t) => t.name))
    expect(new Set(names).size, 'tool names are unique').toBe(names.length)
    for (const entry of catalog) {
      if (!entry.oauth) {
        expect(entry.tools, `${entry.slug} discovers its tools`).toEqual([])
        continue
      }
      expect(entry.tools.length, entry.slug).toBeGreaterThan(0)
      for (const tool of entry.tools)
        expect(typeof toolImplementation(tool.name)?.run, `${tool.name} has an implementation`).toBe(
          'function',
        )
    }
  })

  it('every provider module is in the catalog, so every implementation has a catalog entry', async () => {
    const files = readdirSync(providersDir).filter((f) => f.endsWith('.ts') && !notProviders.has(f))
    for (const file of files) {
      const module = (await import(`${providersDir}${file}`)) as Record<string, ProviderDefinition>
      const definitions = Object.values(module).filter((v) => v && typeof v === 'object' && 'tools' in v)
      expect(definitions, `${file} exports one provider`).toHaveLength(1)
      const definition = definitions[0]!
      expect(file, 'a module is named by its slug').toBe(`${definition.slug}.ts`)
      expect(oauthProviders, `${file} is listed in catalog.ts`).toContain(definition)
      const entry = catalog.find((e) => e.slug === definition.slug)!
      for (const tool of definition.tools) {
        const listed = entry.tools.find((t) => t.name === `${definition.slug}:${tool.name}`)
        expect(listed, `${definition.slug}:${tool.name} is in the catalog`).toBeDefined()
        expect(listed!.action).toBe(tool.action)
        expect(listed!.requiredScopes).toEqual(tool.requiredScopes)
      }
    }
    expect(files.length, 'one module per OAuth provider').toBe(oauthProviders.length)
  })

  it("publishes each tool's input as a JSON Schema that refuses unknown and missing arguments", () => {
    for (const entry of catalog)
      for (const tool of entry.tools) {
        expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object', additionalProperties: false })
        expect(Array.isArray(tool.inputSchema.required), tool.name).toBe(true)
      }
  })
})

/**
 * Each provider's own conventions, read by its module: a loopback peer answers what the test
 * queues (status and body), and the call goes through the real guarded fetch.
 */
describe("a provider's API conventions", () => {
  let answer: { status: number; body: unknown } = { status: 200, body: {} }
  let lastHeaders: IncomingHttpHeaders = {}
  const server = createServer((req, res) => {
    lastHeaders = req.headers
    req.resume()
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(answer.body))
    })
  })
  let url = ''
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  const deps = {
    fetch: createGuardedFetch({ ...defaultOutboundPolicy, allowLoopback: true, allowHttp: true }),
  } as FunctionDeps
  const call = (slug: string, status: number, body: unknown) => {
    answer = { status, body }
    return providerApi(deps, oauthProviderBySlug(slug)!, url, 'token', 5_000)({ method: 'GET', path: '/x' })
  }

  it("reads Slack's ok:false as a refused token or an error, and only Slack's", async () => {
    await expect(call('slack', 200, { ok: false, error: 'token_expired' })).rejects.toThrow(ProviderAuthError)
    const failed = call('slack', 200, { ok: false, error: 'channel_not_found' })
    await expect(failed).rejects.toThrow(ProviderError)
    await expect(failed).rejects.toThrow('slack answered channel_not_found')
    await expect(call('slack', 200, { ok: true, ts: '1' })).resolves.toEqual({ ok: true, ts: '1' })
    await expect(call('github', 200, { ok: false, error: 'token_expired' })).resolves.toMatchObject({
      ok: false,
    })
  })

  it("reads Linear's GraphQL errors on HTTP 200, and an error status as any provider's", async () => {
    const auth = {
      errors: [{ message: 'Authentication required', extensions: { type: 'authentication error' } }],
    }
    await expect(call('linear', 200, auth)).rejects.toThrow(ProviderAuthError)
    await expect(call('linear', 200, { errors: [{ message: 'Entity not found' }] })).rejects.toThrow(
      'linear answered: Entity not found',
    )
    await expect(call('linear', 400, { errors: [{ message: 'Bad query' }] })).rejects.toThrow(
      'linear answered HTTP 400',
    )
    await expect(call('github', 200, { errors: [{ message: 'x' }] })).resolves.toMatchObject({ errors: [{}] })
    await expect(call('github', 401, { message: 'Bad credentials' })).rejects.toThrow(ProviderAuthError)
  })

  it("sends the headers a provider's module requires, and only that provider's", async () => {
    await call('github', 200, {})
    expect(lastHeaders['x-github-api-version']).toBe('2022-11-28')
    expect(lastHeaders['notion-version']).toBeUndefined()
    await call('notion', 200, {})
    expect(lastHeaders['notion-version']).toBe('2022-06-28')
    expect(lastHeaders['x-github-api-version']).toBeUndefined()
  })
})
