// The authorize request sends each provider its real scope names, mapped from
// the spec's permission names in the catalog, and every one of them is a scope the provider
// documents. The lists below are copied from the providers' documentation (named per provider);
// a scope added to the catalog must be found there first.
import { describe, expect, it } from 'vitest'
import { catalog, permissionNames, resolveProviders } from '../shared/services/integrations/catalog.ts'

const documented: Record<string, { source: string; scopes: string[] }> = {
  // Notion has no OAuth scopes: an integration's capabilities are set in its settings, and the
  // authorize URL carries no scope (extra parameters are ignored). The catalog's names are those
  // capabilities: "Read content", "Update content", "Insert content".
  notion: {
    source: 'https://developers.notion.com/reference/capabilities',
    scopes: ['read_content', 'update_content', 'insert_content'],
  },
  slack: {
    source: 'https://api.slack.com/scopes',
    scopes: ['chat:write', 'channels:read', 'channels:history', 'search:read', 'users:read'],
  },
  'google-drive': {
    source: 'https://developers.google.com/drive/api/guides/api-specific-auth',
    scopes: [
      'https://www.googleapis.com/auth/drive',
      'https://www.googleapis.com/auth/drive.file',
      'https://www.googleapis.com/auth/drive.readonly',
      'https://www.googleapis.com/auth/drive.metadata.readonly',
    ],
  },
  github: {
    source: 'https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps',
    scopes: ['repo', 'public_repo', 'read:org', 'read:user', 'user:email'],
  },
  linear: {
    source: 'https://linear.app/developers/oauth-2-0-authentication',
    scopes: ['read', 'write', 'issues:create', 'comments:create', 'timeSchedule:write', 'admin'],
  },
  figma: {
    source: 'https://developers.figma.com/docs/rest-api/scopes/',
    scopes: [
      'current_user:read',
      'file_comments:read',
      'file_comments:write',
      'file_content:read',
      'file_metadata:read',
      'file_versions:read',
    ],
  },
  gmail: {
    source: 'https://developers.google.com/gmail/api/auth/scopes',
    scopes: [
      'https://www.googleapis.com/auth/gmail.send',
      'https://www.googleapis.com/auth/gmail.readonly',
      'https://www.googleapis.com/auth/gmail.compose',
      'https://www.googleapis.com/auth/gmail.modify',
    ],
  },
  'google-calendar': {
    source: 'https://developers.google.com/calendar/api/auth',
    scopes: [
      'https://www.googleapis.com/auth/calendar',
      'https://www.googleapis.com/auth/calendar.readonly',
      'https://www.googleapis.com/auth/calendar.events',
      'https://www.googleapis.com/auth/calendar.events.readonly',
    ],
  },
}

const providers = resolveProviders({ OAUTH_ENV: {} })

describe('OAuth scopes in the catalog', () => {
  it('covers every OAuth integration of the catalog', () => {
    expect(Object.keys(documented).sort()).toEqual(
      catalog
        .filter((e) => e.oauth)
        .map((e) => e.slug)
        .sort(),
    )
  })

  for (const entry of catalog.filter((e) => e.oauth)) {
    it(`${entry.slug}: every scope sent is one the provider documents`, () => {
      const sent = providers.get(entry.slug)!.providerScopes
      expect(sent).toHaveLength(entry.oauth_scopes.length)
      for (const scope of sent) expect(documented[entry.slug]!.scopes, scope).toContain(scope)
    })

    it(`${entry.slug}: granted provider scopes read back as the spec's permission names`, () => {
      const provider = providers.get(entry.slug)!
      expect(permissionNames(provider, provider.providerScopes)).toEqual(entry.oauth_scopes)
      // Every tool's required scopes are permission names of the entry.
      for (const tool of entry.tools)
        for (const s of tool.requiredScopes) expect(entry.oauth_scopes).toContain(s)
    })
  }

  it("sends Google its own scope names, e.g. Gmail's https://www.googleapis.com/auth/gmail.send", () => {
    expect(providers.get('gmail')!.providerScopes).toEqual([
      'https://www.googleapis.com/auth/gmail.send',
      'https://www.googleapis.com/auth/gmail.readonly',
    ])
    expect(providers.get('gmail')!.scopes).toEqual(['mail.send', 'mail.readonly'])
    // A scope the catalog does not know (Google may add openid) is kept as granted.
    expect(
      permissionNames(providers.get('gmail')!, ['openid', 'https://www.googleapis.com/auth/gmail.send']),
    ).toEqual(['openid', 'mail.send'])
  })
})
