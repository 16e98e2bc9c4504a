import { fileURLToPath } from 'node:url'

/** supabase/schema-snapshot/: the current schema, one file per kind of object, applied in this order. */
export const schemaDir = fileURLToPath(new URL('../../supabase/schema-snapshot/', import.meta.url))

export const schemaFiles = [
  // Tables before functions: some functions take or return a table's row type, and no column
  // default calls a function of ours.
  { file: '1-tables.sql', title: 'Schemas; tables, their columns, defaults and sequences' },
  { file: '2-functions.sql', title: 'Functions (security-definer helpers, RLS helpers, triggers, jobs)' },
  {
    file: '3-keys-and-indexes.sql',
    title: 'Primary keys, unique and check constraints, foreign keys, indexes',
  },
  { file: '4-triggers.sql', title: 'Triggers' },
  {
    file: '5-row-level-security.sql',
    title: 'Row-level security: which tables enforce it, and every policy',
  },
  { file: '6-privileges.sql', title: 'Privileges: table, column, function and schema grants' },
] as const

/** Which file a pg_dump object of this kind goes in. */
export function sectionOf(kind: string): (typeof schemaFiles)[number]['file'] {
  if (kind === 'FUNCTION' || kind === 'AGGREGATE') return '2-functions.sql'
  if (kind === 'CONSTRAINT' || kind === 'FK CONSTRAINT' || kind === 'INDEX') return '3-keys-and-indexes.sql'
  if (kind === 'TRIGGER') return '4-triggers.sql'
  if (kind === 'ROW SECURITY' || kind === 'POLICY') return '5-row-level-security.sql'
  if (kind === 'ACL' || kind === 'DEFAULT ACL') return '6-privileges.sql'
  return '1-tables.sql'
}
