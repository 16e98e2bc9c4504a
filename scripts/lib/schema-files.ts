import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * supabase/schema-snapshot/: the current schema, one file per area. An area's file holds each of
 * its tables with everything about it in one place: columns, keys, indexes, triggers, row-level
 * security, policies and grants. Functions are one file of their own (a policy or a trigger of any
 * area calls them, and a reader looks one up by name).
 */
export const schemaDir = fileURLToPath(new URL('../../supabase/schema-snapshot/', import.meta.url))

/** The areas by table name (public or private schema); the first that matches takes the table. */
export const areas = [
  {
    file: 'tenants.sql',
    tables:
      /^(tenants|tenant_members|invitations|user_active_tenant|auth_changes|api_keys|api_request_log(_default)?)$/,
  },
  { file: 'content.sql', tables: /^(articles|article_.+|sites|tags)$/ },
  { file: 'sources.sql', tables: /^(sources|source_items)$/ },
  { file: 'credentials.sql', tables: /^(credentials|credential_usage|providers|tenant_data_keys)$/ },
  { file: 'integrations.sql', tables: /^(integration_.+|oauth_states)$/ },
  { file: 'mcp.sql', tables: /^mcp_.+$/ },
  { file: 'assistant.sql', tables: /^assistant_.+$/ },
  { file: 'commerce.sql', tables: /^commerce_.+$/ },
  { file: 'affiliate.sql', tables: /^affiliate_.+$/ },
  { file: 'webhooks.sql', tables: /^webhook_.+$/ },
  { file: 'usage.sql', tables: /^(usage_.+|plan_quotas|products)$/ },
  // Schemas, jobs, the event outbox, notifications, rate limits: what every area stands on.
  { file: 'platform.sql', tables: /^/ },
] as const

export const functionsFile = 'functions.sql'

/** Which file an object goes in: functions (and their grants) in one, anything else by its table's area. */
export function fileOf(kind: string, name: string, table: string): string {
  if (kind === 'FUNCTION' || kind === 'AGGREGATE' || (kind === 'ACL' && /^(FUNCTION|AGGREGATE) /.test(name)))
    return functionsFile
  return areas.find((a) => a.tables.test(table))!.file
}

/** The snapshot's files, as they are on disk. */
export function snapshotFiles(): string[] {
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
}

/**
 * The order objects can be created in, whatever file they sit in: tables before functions (some
 * functions take or return a table's row type; no column default calls a function of ours), keys
 * before the foreign keys that reference them, functions before the indexes, triggers and policies
 * that call them, grants last.
 */
const PHASES = [
  'SCHEMA',
  '',
  // A partition joins its table once both exist (the request log's default partition).
  'TABLE ATTACH',
  'FUNCTION',
  'CONSTRAINT',
  'INDEX',
  // A partition's index joins its table's partitioned index (the request log's day partitions).
  'INDEX ATTACH',
  'FK CONSTRAINT',
  'TRIGGER',
  'ROW SECURITY',
  'POLICY',
  'ACL',
]
export function phaseOf(kind: string): number {
  const at = PHASES.indexOf(kind === 'AGGREGATE' ? 'FUNCTION' : kind === 'DEFAULT ACL' ? 'ACL' : kind)
  return at === -1 ? 1 : at
}

/** One object of a pg_dump as written in the snapshot: its kind and its text. */
export interface SchemaBlock {
  kind: string
  name: string
  text: string
}

/** The objects of a pg_dump text (or a snapshot file): each opens with "-- Name: …; Type: KIND; …". */
export function blocksOf(sqlText: string): SchemaBlock[] {
  let previous = ''
  return sqlText
    .split(/\n--\n(?=-- Name: )/)
    .slice(1)
    .map((text) => {
      const own = /Type: ([A-Z ]+);/.exec(text)?.[1] ?? ''
      // A comment belongs with the object before it.
      const kind = own === 'COMMENT' ? previous : own
      previous = kind
      return { kind, name: /^-- Name: ([^;]+);/.exec(text)?.[1] ?? '', text: text.trimEnd() }
    })
}
