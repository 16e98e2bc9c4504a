import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServerType } from '@hono/node-server'
import { ensureUserAndTenant, issueAccessToken } from '@local-platform/dev-identity.ts'
import { listenPlatform } from '@local-platform/listen.ts'
import { createLocalEnv, functionEnvironment, type LocalEnv } from '@local-platform/local-env.ts'
import { createPlatform, type Platform } from '@local-platform/server.ts'
import type { Clock } from '@shared/infra/deps.ts'
import type { GuardedFetch } from '@shared/infra/outbound.ts'
import { createTestDatabase, type TestDatabase } from './database.ts'
import { assertEmittedEventsMatchCatalog } from './emitted-events.ts'

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date('2026-11-21T12:00:30.000Z')) {}
  now(): Date {
    return new Date(this.current)
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms)
  }
  set(at: Date): void {
    this.current = new Date(at)
  }
}

interface TestInstance {
  platform: Platform
  baseUrl: string
}

export interface TestTenant {
  userId: string
  tenantId: string
  email: string
  token: string
}

interface RequestOptions {
  method?: string
  token?: string
  headers?: Record<string, string>
  body?: unknown
  /** Which instance to send to (default 0). */
  instance?: number
}

export interface TestPlatform {
  db: TestDatabase
  /** Where the local Storage keeps object bytes. */
  storageDir: string
  localEnv: LocalEnv
  instances: TestInstance[]
  baseUrl: string
  serviceRoleKey: string
  anonKey: string
  /** A new user and tenant (or a new member of an existing tenant) with a signed access token. */
  createTenant(opts?: {
    email?: string
    tenant?: string
    role?: 'owner' | 'admin' | 'member'
  }): Promise<TestTenant>
  tokenFor(
    user: { userId: string; email: string; tenantId?: string },
    opts?: { expiresInSeconds?: number; now?: Date },
  ): Promise<string>
  request(path: string, opts?: RequestOptions): Promise<Response>
  /** request() and parse the JSON body. */
  json<T = any>(path: string, opts?: RequestOptions): Promise<{ status: number; body: T; headers: Headers }>
  close(): Promise<void>
}

let counter = 0

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => done(port))
    })
  })
}

/**
 * The bound of a set-up hook that starts platforms (each a database migrated from scratch and an
 * app per instance): per platform, so a hook that starts more waits longer. One took 17 s on the
 * 2-core machine at a load average of 8 (measured), and past the old fixed 60 s with `npm start`, a
 * browser and other runs beside the suite; 120 s each holds that with room and still ends a hook
 * that hangs.
 */
const SETUP_MS_PER_PLATFORM = 120_000
export const setupTimeout = (platforms = 1) => platforms * SETUP_MS_PER_PLATFORM

/**
 * The whole platform over a fresh database, served over real HTTP on loopback, with one or
 * more instances sharing the database (to test behaviour across instances).
 */
export async function startTestPlatform(
  opts: {
    instances?: number
    clock?: Clock
    fetch?: GuardedFetch
    env?: Record<string, string>
    /** A PostgreSQL server of the test's own to create the database on (default: DATABASE_URL, else embedded). */
    databaseServerUrl?: string
    /**
     * Start an event's automation runs right after its commit, as production does (docs/adr/0038).
     * Off by default here: most tests run the assistant sweep by hand on a test clock and count
     * what each sweep started.
     */
    kickEventRuns?: boolean
  } = {},
): Promise<TestPlatform> {
  const db = await createTestDatabase({ serverUrl: opts.databaseServerUrl })
  const localEnv = await createLocalEnv()
  // The first instance's address is known before it starts, so the URLs the platform gives out
  // (Storage's signed URLs under SUPABASE_URL) point at it.
  const firstPort = await freePort()
  const env = {
    ...functionEnvironment(localEnv, db.url),
    SUPABASE_URL: `http://127.0.0.1:${firstPort}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_POOL_MAX: '5',
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    OUTBOUND_ALLOW_HTTP: 'true',
    ...opts.env,
  }
  const instances: TestInstance[] = []
  const servers: ServerType[] = []
  // One Storage folder for all instances, as they share one database.
  const storageDir = mkdtempSync(join(tmpdir(), 'platform-storage-'))
  for (let i = 0; i < (opts.instances ?? 1); i++) {
    const platform = await createPlatform({
      env,
      localEnv,
      kickEventRuns: opts.kickEventRuns ?? false,
      storageDir,
      overrides: { ...(opts.clock && { clock: opts.clock }), ...(opts.fetch && { fetch: opts.fetch }) },
    })
    const { server, port } = await listenPlatform(platform, {
      port: i === 0 ? firstPort : 0,
      // Tests may name the client's socket address; otherwise the real one, as in production.
      clientAddress: (req, socketAddress) => req.headers.get('x-test-client') ?? socketAddress,
    })
    servers.push(server)
    instances.push({ platform, baseUrl: `http://127.0.0.1:${port}` })
  }

  const tokenFor: TestPlatform['tokenFor'] = (user, o = {}) =>
    issueAccessToken(localEnv, user, { issuer: 'http://127.0.0.1/auth/v1', ...o })

  const request: TestPlatform['request'] = (path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers }
    if (o.token) headers.authorization = `Bearer ${o.token}`
    let body: string | FormData | undefined
    // A form (a media upload) goes as multipart, its boundary in the type fetch sets.
    if (o.body instanceof FormData) body = o.body
    else if (o.body !== undefined) {
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body)
      headers['content-type'] ??= 'application/json'
    }
    return fetch(`${instances[o.instance ?? 0]!.baseUrl}${path}`, {
      method: o.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
    })
  }

  return {
    db,
    storageDir,
    localEnv,
    instances,
    baseUrl: instances[0]!.baseUrl,
    serviceRoleKey: localEnv.serviceRoleKey,
    anonKey: localEnv.anonKey,
    async createTenant(o = {}) {
      counter++
      const email = o.email ?? `user${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`
      const ids = await ensureUserAndTenant(
        db.sql,
        email,
        o.tenant ?? `Tenant ${counter} ${email}`,
        o.role ?? 'owner',
      )
      return { ...ids, email, token: await tokenFor({ ...ids, email }) }
    },
    tokenFor,
    request,
    async json(path, o) {
      const res = await request(path, o)
      const text = await res.text()
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
    },
    async close() {
      for (const s of servers) s.close()
      for (const i of instances) await i.platform.close()
      try {
        // Every event the platform emitted in this file matches its published schema.
        await assertEmittedEventsMatchCatalog(db.sql)
      } finally {
        await db.close()
        rmSync(storageDir, { recursive: true, force: true })
      }
    },
  }
}

/** Adds a member to an existing tenant and returns their token. */
export async function addMember(
  tp: TestPlatform,
  tenantId: string,
  role: 'owner' | 'admin' | 'member' | 'contributor',
): Promise<TestTenant> {
  counter++
  const email = `member${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const [user] = await tp.db.sql<
    { id: string }[]
  >`insert into auth.users (id, email) values (gen_random_uuid(), ${email}) returning id`
  await tp.db
    .sql`insert into public.tenant_members (tenant_id, user_id, role) values (${tenantId}, ${user!.id}, ${role})`
  const token = await tp.tokenFor({ userId: user!.id, email, tenantId })
  return { userId: user!.id, tenantId, email, token }
}
