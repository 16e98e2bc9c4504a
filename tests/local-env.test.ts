import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadOrCreateLocalEnv } from '../local-platform/local-env.ts'

/**
 * The data folder's local-env.json (the local platform's keys) is made once: starts that find
 * none at the same moment agree on one, so none of them signs with keys the file does not hold.
 */
describe('local-env.json in a new data folder', () => {
  const saved = process.env.PLATFORM_DATA_DIR
  let dir: string
  afterEach(() => {
    process.env.PLATFORM_DATA_DIR = saved
    rmSync(dir, { recursive: true, force: true })
  })

  it('is made by one of two starts at once, and both use it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-env-'))
    process.env.PLATFORM_DATA_DIR = dir
    const [a, b] = await Promise.all([loadOrCreateLocalEnv(), loadOrCreateLocalEnv()])
    const stored = JSON.parse(readFileSync(join(dir, 'local-env.json'), 'utf8'))
    expect(a.jwtKid).toBe(stored.jwtKid)
    expect(b.jwtKid).toBe(stored.jwtKid)
    expect(a.serviceRoleKey).toBe(stored.serviceRoleKey)
    expect(readdirSync(dir)).toEqual(['local-env.json'])
  })
})
