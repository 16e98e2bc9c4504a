import { validate as scalarValidate } from '@scalar/openapi-parser'
import { apiReference } from '@scripts/lib/route-catalog.ts'
import { Validator } from '@seriousme/openapi-schema-validator'
import { beforeAll, describe, expect, it } from 'vitest'

/**
 * The API reference's document (/docs/openapi.json) as the platform builds it, from each function's
 * own document: valid OpenAPI 3.1 for Scalar's validator (what the /docs page reads it with) and for
 * an independent one that checks it against the specification's JSON Schema, and every operation
 * named by a summary short enough for the reference's sidebar (the detail is in its description).
 */

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document, read generically
let doc: any

beforeAll(async () => {
  doc = await apiReference()
}, 120_000)

const MAX_SUMMARY = 60
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** Every operation of the document, paths and webhooks, with where it is. */
function operations(): { where: string; summary?: string }[] {
  const found: { where: string; summary?: string }[] = []
  for (const [section, items] of [
    ['paths', doc.paths],
    ['webhooks', doc.webhooks ?? {}],
  ] as const)
    for (const [name, item] of Object.entries<Record<string, { summary?: string }>>(items))
      for (const method of METHODS)
        if (item[method]) found.push({ where: `${section} ${method} ${name}`, summary: item[method].summary })
  return found
}

describe('the API reference document', () => {
  it("has no errors for Scalar's validator", async () => {
    const result = await scalarValidate(structuredClone(doc))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it("has no errors for an OpenAPI 3.1 validator that checks the specification's schema", async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(doc))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it(`names every operation with one line of at most ${MAX_SUMMARY} characters`, () => {
    const all = operations()
    expect(all.length).toBeGreaterThan(150)
    const bad = all.filter(
      ({ summary }) =>
        !summary || summary.length > MAX_SUMMARY || /\n/.test(summary) || summary.trim() !== summary,
    )
    expect(bad.map(({ where, summary }) => `${where}: ${summary} (${summary?.length ?? 0})`)).toEqual([])
  })
})
