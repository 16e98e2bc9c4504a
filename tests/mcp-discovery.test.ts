import { readFileSync } from 'node:fs'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupTimeout, startTestPlatform, type TestPlatform } from './support/platform.ts'

/**
 * Discovery before connecting: the MCP server card at the origin's and {mcp_url}'s
 * /.well-known/mcp/server-card.json, and the repository's server.json for the official MCP registry.
 *
 * Neither schema is vendored: the constraints below are written from the documented schemas (the
 * server-card extension's v2 ServerCard, the registry's server.schema.json): required fields,
 * the reverse-DNS name with one slash, a description of at most 100 characters, transports of
 * the two remote kinds, and no unknown card properties.
 */

const NAME = { type: 'string', pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$', minLength: 3, maxLength: 200 }
const DESCRIPTION = { type: 'string', minLength: 1, maxLength: 100 }
const VERSION = { type: 'string', maxLength: 255, not: { pattern: '^[\\^~<>=]|\\.[x*]' } }
const HEADER = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, description: { type: 'string' }, isSecret: { type: 'boolean' } },
}
const REMOTE = {
  type: 'object',
  required: ['type', 'url'],
  properties: {
    type: { enum: ['streamable-http', 'sse'] },
    url: { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' },
    headers: { type: 'array', items: HEADER },
    supportedProtocolVersions: { type: 'array', items: { type: 'string' } },
  },
}
const ICON = {
  type: 'object',
  additionalProperties: false,
  required: ['src'],
  properties: {
    src: { type: 'string', format: 'uri' },
    mimeType: { type: 'string' },
    sizes: { type: 'array', items: { type: 'string' } },
    theme: { enum: ['dark', 'light'] },
  },
}
const serverCard = {
  type: 'object',
  additionalProperties: false,
  required: ['$schema', 'name', 'description', 'version'],
  properties: {
    $schema: { const: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json' },
    name: NAME,
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: DESCRIPTION,
    version: VERSION,
    icons: { type: 'array', items: ICON },
    remotes: { type: 'array', items: { ...REMOTE, additionalProperties: false } },
    websiteUrl: { type: 'string', format: 'uri' },
    _meta: { type: 'object' },
  },
}
const registryServer = {
  type: 'object',
  required: ['$schema', 'name', 'description', 'version'],
  properties: {
    $schema: {
      type: 'string',
      pattern: '^https://static\\.modelcontextprotocol\\.io/schemas/[0-9-]+/server\\.schema\\.json$',
    },
    name: NAME,
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: DESCRIPTION,
    version: VERSION,
    remotes: { type: 'array', minItems: 1, items: REMOTE },
  },
}

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
const check = (schema: object, doc: unknown) => {
  const validate = ajv.compile(schema)
  return validate(doc) ? [] : validate.errors
}

let tp: TestPlatform
beforeAll(async () => {
  tp = await startTestPlatform()
}, setupTimeout())
afterAll(() => tp.close())

describe('MCP discovery', () => {
  it('serves the server card without credentials, at the origin and under {mcp_url}, to any origin', async () => {
    for (const path of ['/.well-known/mcp/server-card.json', '/mcp/.well-known/mcp/server-card.json']) {
      const res = await fetch(`${tp.baseUrl}${path}`, { headers: { origin: 'https://client.example' } })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      const card = await res.json()
      expect(check(serverCard, card)).toEqual([])
      const streamable = card.remotes.find((r: { type: string }) => r.type === 'streamable-http')
      expect(streamable.url).toBe(`${tp.baseUrl}/mcp`)
      expect(streamable.supportedProtocolVersions).toEqual([
        '2026-07-28',
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
      ])
      expect(card._meta['dev.tenant-platform/authorization'].authorization_servers).toEqual([
        `${tp.baseUrl}/mcp`,
      ])
      // The card agrees with what server/discover and initialize say.
      const meta = await fetch(card._meta['dev.tenant-platform/authorization'].protected_resource_metadata)
      expect((await meta.json()).resource).toBe(`${tp.baseUrl}/mcp`)
    }
  })

  it("keeps a server.json for the official registry that its schema's rules accept", () => {
    const doc = JSON.parse(readFileSync('server.json', 'utf8'))
    expect(check(registryServer, doc)).toEqual([])
    expect(check(registryServer, { ...doc, description: 'x'.repeat(101) })).not.toEqual([])
    expect(check(registryServer, { ...doc, name: 'no-slash' })).not.toEqual([])
  })
})
