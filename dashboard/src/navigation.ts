/**
 * The menu by role and task (docs/dashboard.md "Navigation"). Hiding an entry is presentation
 * only: every route still answers by the caller's role, so a page opened by its address shows what
 * the API allows. A contributor gets the writing pages; an editor (member) the newsroom first and
 * the platform's plumbing folded under Settings; owners and admins everything, the plumbing under
 * Platform and Settings.
 */
import type { Session } from './ui.tsx'

export interface NavEntry {
  path: string
  label: string
  /** A heading the entry sits under; entries without one come first. */
  group?: string
}

const newsroom: NavEntry[] = [
  { path: 'home', label: 'Home' },
  { path: 'articles', label: 'Articles' },
  { path: 'review', label: 'Review' },
  { path: 'scheduled', label: 'Scheduled' },
  { path: 'assistant', label: 'Assistant' },
  { path: 'automations', label: 'Automations' },
  { path: 'approvals', label: 'Approvals' },
  { path: 'sites', label: 'Sites' },
  { path: 'tags', label: 'Tags' },
]

const platform: [string, string][] = [
  ['sources', 'Sources'],
  ['integrations', 'Integrations'],
  ['credentials', 'Credentials'],
  ['webhooks', 'Webhooks'],
  ['commerce', 'Commerce'],
  ['affiliate', 'Affiliate'],
  ['jobs', 'Jobs'],
  ['usage', 'Usage'],
  ['request-log', 'Request log'],
]

const settings: [string, string][] = [
  ['keys', 'API keys'],
  ['mcp-clients', 'MCP clients'],
  ['team', 'Team'],
]

const under = (group: string, entries: [string, string][]): NavEntry[] =>
  entries.map(([path, label]) => ({ path, label, group }))

/** The menu for a role, in order. */
export function navFor(role: Session['role']): NavEntry[] {
  if (role === 'contributor')
    return [
      { path: 'home', label: 'Home' },
      { path: 'articles', label: 'Articles' },
      { path: 'drafts', label: 'My drafts' },
      { path: 'assistant', label: 'Assistant' },
      ...under('Settings', [['team', 'Team']]),
    ]
  if (role === 'member') return [...newsroom, ...under('Settings', [...platform, ...settings])]
  return [...newsroom, ...under('Platform', platform), ...under('Settings', settings)]
}

/** Members see the plumbing folded away: the newsroom is their work. */
export const foldedGroup = (role: Session['role']) => (role === 'member' ? 'Settings' : undefined)
