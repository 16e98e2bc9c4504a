import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { randomBase62, randomBytes, toBase64 } from '@shared/infra/crypto.ts'
import { exportJWK, generateKeyPair, type JWK } from 'jose'

/**
 * The local platform's secrets, made on first start and kept in the data folder so that
 * `npm run token` and a restarted platform agree with the running one. Never used in production:
 * there the same values come from the Supabase project's environment.
 */
export interface LocalEnv {
  apiPort: number
  dbPort: number
  anonKey: string
  serviceRoleKey: string
  masterKeys: string
  jwtKid: string
  jwtPrivateJwk: JWK
  jwtPublicJwk: JWK
}

export function dataDir(): string {
  return resolve(process.env.PLATFORM_DATA_DIR ?? '.data')
}

const envFile = () => join(dataDir(), 'local-env.json')

export async function loadOrCreateLocalEnv(): Promise<LocalEnv> {
  if (existsSync(envFile())) return JSON.parse(readFileSync(envFile(), 'utf8')) as LocalEnv
  mkdirSync(dataDir(), { recursive: true })
  // Made whole in a file of its own, then linked into place unless another start made one first:
  // two first starts at once then agree on one set of keys (the one that loses the data folder's
  // lock stops, but must not have replaced the keys the other signs with).
  const draft = `${envFile()}.${process.pid}-${randomBase62(8)}`
  writeFileSync(draft, JSON.stringify(await createLocalEnv(), null, 2), { mode: 0o600 })
  try {
    linkSync(draft, envFile())
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  } finally {
    rmSync(draft, { force: true })
  }
  return JSON.parse(readFileSync(envFile(), 'utf8')) as LocalEnv
}

/** Fresh secrets and signing keys (tests use these without touching the data folder). */
export async function createLocalEnv(): Promise<LocalEnv> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const jwtKid = `local-${randomBase62(8)}`
  return {
    apiPort: Number(process.env.PORT ?? 54321),
    dbPort: Number(process.env.DB_PORT ?? 54322),
    anonKey: `sb_publishable_${randomBase62(32)}`,
    serviceRoleKey: `sb_secret_${randomBase62(40)}`,
    masterKeys: `v1:${toBase64(randomBytes(32))}`,
    jwtKid,
    jwtPrivateJwk: { ...(await exportJWK(privateKey)), kid: jwtKid, alg: 'ES256' },
    jwtPublicJwk: { ...(await exportJWK(publicKey)), kid: jwtKid, alg: 'ES256', use: 'sig' },
  }
}

/** Records the ports a run actually uses, so `npm run token` and printed commands reach that instance. */
export function saveLocalEnv(env: LocalEnv): void {
  mkdirSync(dataDir(), { recursive: true })
  writeFileSync(envFile(), JSON.stringify(env, null, 2), { mode: 0o600 })
}

export function readLocalEnv(): LocalEnv {
  if (!existsSync(envFile())) throw new Error(`No local platform found in ${dataDir()}: run npm start first`)
  return JSON.parse(readFileSync(envFile(), 'utf8')) as LocalEnv
}

export function localDatabaseUrl(): string {
  const port = existsSync(envFile()) ? readLocalEnv().dbPort : 54322
  return `postgres://postgres@127.0.0.1:${port}/postgres`
}

/** The environment the functions read, as the local platform sets it. */
export function functionEnvironment(env: LocalEnv, databaseUrl: string): Record<string, string | undefined> {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    // One process serves every function here, not an isolate per function behind a pooler as on
    // Supabase (default 3, docs/deploy.md): keep the local pools as large as they always were.
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX ?? '10',
    SUPABASE_URL: process.env.SUPABASE_URL ?? `http://127.0.0.1:${env.apiPort}`,
    SUPABASE_JWKS: JSON.stringify({ keys: [env.jwtPublicJwk] }),
    SUPABASE_ANON_KEY: process.env.SUPABASE_ANON_KEY ?? env.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: process.env.SUPABASE_SERVICE_ROLE_KEY ?? env.serviceRoleKey,
    VAULT_MASTER_KEYS: process.env.VAULT_MASTER_KEYS ?? env.masterKeys,
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${env.apiPort}`,
    // Where an OAuth connection returns to: the dashboard the platform serves.
    DASHBOARD_URL: process.env.DASHBOARD_URL ?? `http://127.0.0.1:${env.apiPort}/dashboard/`,
    // A front end on another loopback origin (a Vite dev server on :5173) may call the platform.
    CORS_ALLOW_LOOPBACK: process.env.CORS_ALLOW_LOOPBACK ?? 'true',
    // On a developer's machine the webhook receiver, MCP server or feed being tried out runs on
    // loopback over plain http: allow both here (start-up says so). Production keeps refusing
    // them (the defaults in shared/infra/outbound.ts); an explicit `false` still wins locally.
    ...localOutboundDefaults(),
  }
}

/** OUTBOUND_ALLOW_LOOPBACK and OUTBOUND_ALLOW_HTTP as the local platform sets them: on unless set. */
function localOutboundDefaults(): { OUTBOUND_ALLOW_LOOPBACK: string; OUTBOUND_ALLOW_HTTP: string } {
  return {
    OUTBOUND_ALLOW_LOOPBACK: process.env.OUTBOUND_ALLOW_LOOPBACK ?? 'true',
    OUTBOUND_ALLOW_HTTP: process.env.OUTBOUND_ALLOW_HTTP ?? 'true',
  }
}
