import { z } from 'zod'

/**
 * Every setting the functions read, validated once at start-up. The same schema serves the
 * Deno entries (Deno.env) and the local platform (process.env), so a typo fails loudly.
 */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1')

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )

export const configSchema = z.object({
  DATABASE_URL: z.string().min(1),
  /** Pool size per function instance. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** Base address of the Supabase project (or the local platform); used for the JWKS address. */
  SUPABASE_URL: z.string().url().optional(),
  /** JWKS as JSON text, when the keys are configured rather than fetched. */
  SUPABASE_JWKS: z.string().optional(),
  /** Legacy symmetric JWT secret (HS256). */
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  SUPABASE_ANON_KEY: z.string().min(20),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(20),
  /** Envelope master keys, newest first: "v2:<base64 32 bytes>,v1:<base64 32 bytes>". */
  VAULT_MASTER_KEYS: z.string().min(1),
  /**
   * Proxies whose X-Forwarded-For is believed (CIDRs or addresses, comma-separated). Without
   * them the client address is the socket peer; see clientAddress() and docs/deploy.md.
   */
  TRUSTED_PROXIES: list,
  /** A header that a trusted edge overwrites with the client's address on every request. */
  CLIENT_IP_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .optional(),
  /** Origins of the hosted dashboard allowed by CORS. */
  CORS_ORIGINS: list,
  /** Where OAuth callbacks send the user back to. */
  DASHBOARD_URL: z.string().url().default('http://localhost:3000'),
  /** Public address of this deployment, used in links (OAuth redirect URIs, invitations). */
  PUBLIC_URL: z.string().url().default('http://127.0.0.1:54321'),
  /** HTTP e-mail API (Resend-compatible JSON); without it notifications stay in the dev mailbox. */
  EMAIL_API_URL: z.string().url().optional(),
  EMAIL_API_KEY: z.string().optional(),
  EMAIL_FROM: z.string().default('Tenant Platform <no-reply@example.com>'),
  /** Request body limit in bytes (413 above it). */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(1024 * 1024),
  /** Outbound SSRF policy relaxations; tests use loopback, never production. */
  OUTBOUND_ALLOW_LOOPBACK: flag,
  OUTBOUND_ALLOW_PRIVATE: flag,
  OUTBOUND_ALLOW_HTTP: flag,
  /** Webhook attempts in flight per process, in total and per subscription (endpoint); see docs/webhooks.md. */
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(100),
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().min(1).max(1000).default(25),
  /**
   * Retention (the prune-retention job; README "Retention"): finished webhook deliveries and their
   * attempts (the delivery log; at least 30 days), outbox events (rolled up into daily counts per
   * type) and tool usage records (rolled up into daily aggregates; at least 30 days, the longest
   * statistics period).
   */
  RETENTION_WEBHOOK_DELIVERY_DAYS: z.coerce.number().int().min(30).max(3650).default(30),
  RETENTION_OUTBOX_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  RETENTION_TOOL_USAGE_DAYS: z.coerce.number().int().min(30).max(3650).default(90),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** json (default), or pretty: one compact line per event, for a terminal (npm start picks it on a TTY). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /** Usage metering of billable calls (default on); the metering benchmark turns it off for its baseline. */
  METERING_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === undefined || v === 'true' || v === '1'),
  /**
   * Every OAUTH_* variable, collected by loadConfig: the integrations catalog reads its providers'
   * client ids and secrets (OAUTH_<SLUG>_CLIENT_ID / _CLIENT_SECRET) and OAUTH_PROVIDERS_OVERRIDE
   * (JSON that re-points provider URLs, e.g. at a loopback server in tests) from here.
   */
  OAUTH_ENV: z.record(z.string(), z.string()).default({}),
})

export type Config = z.infer<typeof configSchema>

export function loadConfig(env: Record<string, string | undefined>): Config {
  const oauthEnv = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('OAUTH_') && e[1] !== undefined),
  )
  const parsed = configSchema.safeParse({
    ...env,
    // On Supabase the database address arrives as SUPABASE_DB_URL.
    DATABASE_URL: env.DATABASE_URL ?? env.SUPABASE_DB_URL,
    OAUTH_ENV: oauthEnv,
  })
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    throw new Error(`Invalid configuration: ${fields}`)
  }
  return parsed.data
}
