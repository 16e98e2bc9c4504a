import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { catalog, oauthProviders, toolImplementation } from '../shared/services/integrations/catalog.ts'
import type { ProviderDefinition } from '../shared/services/integrations/providers/provider.ts'

/**
 * The catalog is an index of the provider modules (shared/services/integrations/providers/). A
 * module left out of the index would carry implementations no catalog entry offers; a catalog
 * tool without an implementation would be listed and then fail every call.
 */

const providersDir = fileURLToPath(new URL('../shared/services/integrations/providers/', import.meta.url))
/** The files of the directory that are not provider modules. */
const notProviders = new Set(['provider.ts', 'api.ts', 'mcp-servers.ts'])

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
