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

/** A JSON object of named keys, as Supabase provides SUPABASE_PUBLISHABLE_KEYS / SUPABASE_SECRET_KEYS. */
const keyMap = (prefix: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return [] as string[]
      let parsed: unknown
      try {
        parsed = JSON.parse(v)
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of named keys' })
        return z.NEVER
      }
      const keys = z
        .record(
          z.string(),
          z
            .string()
            .startsWith(prefix)
            .min(prefix.length + 16),
        )
        .safeParse(parsed)
      if (!keys.success) {
        ctx.addIssue({ code: 'custom', message: `must be a JSON object of ${prefix}... keys` })
        return z.NEVER
      }
      return Object.values(keys.data)
    })

export const configSchema = z.object({
  /**
   * The database. On Supabase: the transaction pooler (port 6543), set as a secret; without it
   * the functions fall back to SUPABASE_DB_URL, which Supabase provides (docs/deploy.md).
   */
  DATABASE_URL: z.string().min(1),
  /**
   * Connections per function instance (isolate). Small by default: every function of every
   * region keeps its own pool, and the pooler multiplexes them (sizing: docs/deploy.md).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(3),
  /** Base address of the Supabase project (or the local platform); used for the JWKS address. */
  SUPABASE_URL: z.string().url().optional(),
  /** JWKS as JSON text, when the keys are configured rather than fetched. */
  SUPABASE_JWKS: z.string().optional(),
  /**
   * Legacy symmetric JWT secret (HS256). The CLI refuses secrets named SUPABASE_*, so on a
   * project it is set as JWT_SECRET or LEGACY_JWT_SECRET (loadConfig reads all three).
   */
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  /** Legacy API keys (JWTs), provided by Supabase while the project still has them. */
  SUPABASE_ANON_KEY: z.string().min(20).optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(20).optional(),
  /** Current API keys, provided by Supabase as JSON objects: {"default":"sb_publishable_..."}. */
  SUPABASE_PUBLISHABLE_KEYS: keyMap('sb_publishable_'),
  SUPABASE_SECRET_KEYS: keyMap('sb_secret_'),
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
  /**
   * Besides CORS_ORIGINS, any loopback origin (http://localhost:5173, http://127.0.0.1:3000,
   * http://[::1]:8080): a front end served by a local dev server. The local platform sets it;
   * production leaves it off.
   */
  CORS_ALLOW_LOOPBACK: flag,
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
  /** Apify API root (scrape-social's scraping-provider sources); tests point it at a loopback server. */
  APIFY_API_URL: z.string().url().default('https://api.apify.com'),
  // Affiliate networks (sync-affiliate; tests point them at loopback peers).
  AWIN_FEED_URL: z.string().url().default('https://productdata.awin.com'),
  CJ_API_URL: z.string().url().default('https://ads.api.cj.com/query'),
  AMAZON_CREATORS_API_URL: z.string().url().default('https://creatorsapi.amazon'),
  AMAZON_CREATORS_TOKEN_URL: z.string().url().default('https://api.amazon.com/auth/o2/token'),
  /** OpenAI-compatible Chat Completions root (generate-article), e.g. a gateway or a local model server. */
  OPENAI_BASE_URL: z.string().url().default('https://api.openai.com/v1'),
  /** Anthropic Messages API root (generate-article). */
  ANTHROPIC_BASE_URL: z.string().url().default('https://api.anthropic.com'),
  /** Webhook attempts in flight per process, in total and per subscription (endpoint); see docs/webhooks.md. */
  WEBHOOK_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(100),
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: z.coerce.number().int().min(1).max(1000).default(25),
  /**
   * Retention (the prune-retention job; README "Retention"): finished webhook deliveries and their
   * attempts (the delivery log; at least 30 days), outbox events (rolled up into daily counts per
   * type), tool usage records (rolled up into daily aggregates; at least 30 days, the longest
   * statistics period), finished commerce deliveries (at least 7 days: the row also dedupes a
   * shop's redelivery) and finished background jobs.
   */
  RETENTION_WEBHOOK_DELIVERY_DAYS: z.coerce.number().int().min(30).max(3650).default(30),
  RETENTION_OUTBOX_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  RETENTION_TOOL_USAGE_DAYS: z.coerce.number().int().min(30).max(3650).default(90),
  RETENTION_COMMERCE_DELIVERY_DAYS: z.coerce.number().int().min(7).max(3650).default(30),
  RETENTION_JOB_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Days the request log (GET /api/request-log) keeps a request, pruned by the same job. */
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * Seconds a browser or CDN may keep what a published-only key read (Cache-Control: public); short
   * by default, since an unpublished article should leave caches soon. 0 to 86400.
   */
  CONTENT_PUBLIC_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /**
   * Milliseconds an instance may answer a published-only key's read from memory (the same read by
   * any published-only key of the tenant, made under RLS); a write through the instance forgets
   * the tenant's at once, other instances' show it within this bound. 0 turns it off; at most 10 s.
   */
  CONTENT_READ_CACHE_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** json (default), or pretty: one compact line per event, for a terminal (npm start picks it on a TTY). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /** Usage metering of billable calls (default on); the metering benchmark turns it off for its baseline. */
  METERING_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === undefined || v === 'true' || v === '1'),
  /**
   * Commerce webhooks: process each delivery in process right after acknowledging it (default on);
   * off leaves processing to the commerce-process sweep. The commerce benchmark measures both.
   */
  COMMERCE_PROCESS_ON_RECEIPT: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === undefined || v === 'true' || v === '1'),
  /**
   * Every OAUTH_* variable, collected by loadConfig: the integrations catalog reads its providers'
   * client ids and secrets (OAUTH_<SLUG>_CLIENT_ID / _CLIENT_SECRET) and OAUTH_PROVIDERS_OVERRIDE
   * (JSON that re-points provider URLs, e.g. at a loopback server in tests) from here.
   */
  OAUTH_ENV: z.record(z.string(), z.string()).default({}),
  /** Tool server (docs/mcp.md): browser origins allowed besides CORS_ORIGINS (MCP's Origin rule). */
  MCP_ALLOWED_ORIGINS: list,
  /**
   * The tool server's public address ({mcp_url}): the OAuth resource and issuer. Default: the
   * address each request used (the local platform's /mcp, or SUPABASE_URL/functions/v1/mcp-sse).
   */
  MCP_PUBLIC_URL: z.string().url().optional(),
  /** Time-out of one provider or MCP-server call made by a tool (ms). */
  MCP_TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** An SSE stream closes after this long, under the edge runtime's wall-clock limit (ms). */
  MCP_SSE_MAX_STREAM_MS: z.coerce.number().int().min(1000).max(3_600_000).default(140_000),
  /** Heartbeat comment on open SSE streams (ms). */
  MCP_SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /**
   * Session-mode connection for LISTEN (direct, or Supabase's session pooler on port 5432). Defaults
   * to DATABASE_URL unless that is the transaction pooler (port 6543), where streams poll instead.
   */
  MCP_LISTEN_DATABASE_URL: z.string().min(1).optional(),
})

export type Config = z.infer<typeof configSchema>

/** Every secret key this deployment accepts as the service role: the legacy one and sb_secret_... keys. */
export function serviceKeys(
  config: Pick<Config, 'SUPABASE_SERVICE_ROLE_KEY' | 'SUPABASE_SECRET_KEYS'>,
): string[] {
  return [
    ...config.SUPABASE_SECRET_KEYS,
    ...(config.SUPABASE_SERVICE_ROLE_KEY ? [config.SUPABASE_SERVICE_ROLE_KEY] : []),
  ]
}

/** Every key this deployment accepts as anon: the legacy one and sb_publishable_... keys. */
export function publishableKeys(
  config: Pick<Config, 'SUPABASE_ANON_KEY' | 'SUPABASE_PUBLISHABLE_KEYS'>,
): string[] {
  return [
    ...config.SUPABASE_PUBLISHABLE_KEYS,
    ...(config.SUPABASE_ANON_KEY ? [config.SUPABASE_ANON_KEY] : []),
  ]
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const oauthEnv = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('OAUTH_') && e[1] !== undefined),
  )
  const parsed = configSchema.safeParse({
    ...env,
    // Supabase provides SUPABASE_DB_URL; the pooler address is set as DATABASE_URL (docs/deploy.md).
    DATABASE_URL: env.DATABASE_URL || env.SUPABASE_DB_URL,
    // The CLI refuses secrets whose names start with SUPABASE_, so the legacy secret is set
    // under one of these names on a project.
    SUPABASE_JWT_SECRET: env.SUPABASE_JWT_SECRET || env.JWT_SECRET || env.LEGACY_JWT_SECRET,
    // A project whose legacy keys are turned off may pass them empty.
    SUPABASE_ANON_KEY: env.SUPABASE_ANON_KEY || undefined,
    SUPABASE_SERVICE_ROLE_KEY: env.SUPABASE_SERVICE_ROLE_KEY || undefined,
    OAUTH_ENV: oauthEnv,
  })
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    throw new Error(`Invalid configuration: ${fields}`)
  }
  // Legacy or current: at least one key of each kind (Supabase provides both kinds).
  const missing = [
    serviceKeys(parsed.data).length === 0 &&
      'SUPABASE_SECRET_KEYS: a secret key is required (SUPABASE_SECRET_KEYS or SUPABASE_SERVICE_ROLE_KEY)',
    publishableKeys(parsed.data).length === 0 &&
      'SUPABASE_PUBLISHABLE_KEYS: a publishable key is required (SUPABASE_PUBLISHABLE_KEYS or SUPABASE_ANON_KEY)',
  ].filter(Boolean)
  if (missing.length) throw new Error(`Invalid configuration: ${missing.join('; ')}`)
  return parsed.data
}
