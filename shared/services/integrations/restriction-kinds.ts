/**
 * The tools that take a restriction, with the one key each accepts and how a person enters it: what
 * the dashboard builds its forms from. Dependency-free, so the dashboard bundle stays small; the
 * validation is `restrictionSchemas` in permissions.ts, and tests/integrations.test.ts holds the two
 * to the same tools, keys and examples.
 */
export interface RestrictionKind {
  /** The key of the restrictions object: `{channels: [...]}`. */
  key: 'channels' | 'databases' | 'repositories' | 'recipients'
  /** What one entry is, for a label: "Slack channel ids". */
  label: string
  example: string
}

export const restrictionKinds: Readonly<Record<string, RestrictionKind>> = {
  'slack:post_message': {
    key: 'channels',
    label: 'Allowed channels (Slack channel ids)',
    example: 'C0123456789',
  },
  'notion:create_page': {
    key: 'databases',
    label: 'Allowed databases (Notion database ids)',
    example: '0f3b5c6d-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  },
  'github:create_issue': {
    key: 'repositories',
    label: 'Allowed repositories (owner/name)',
    example: 'acme/website',
  },
  'gmail:send_email': {
    key: 'recipients',
    label: 'Allowed recipients (addresses or @domain)',
    example: '@example.com',
  },
}
