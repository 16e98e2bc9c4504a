import type { Session as AuthSession } from '@supabase/supabase-js'
import { render, type VNode } from 'preact'
import { useCallback, useEffect, useState } from 'preact/hooks'
import { config, supabase } from './api.ts'
import { switchTenant as activate, listTenants, type Tenant } from './data/team.ts'
import { FramedRefusal, isFramed } from './framed.tsx'
import { foldedGroup, type NavEntry, navFor } from './navigation.ts'
import { AffiliatePage } from './pages/affiliate.tsx'
import { ApiKeyPage, ApiKeysPage } from './pages/api-keys.tsx'
import { ApprovalsBadge, ApprovalsPage } from './pages/approvals.tsx'
import { ArticlesPage, ReviewBadge } from './pages/articles.tsx'
import { AssistantPage } from './pages/assistant.tsx'
import { AutomationsPage } from './pages/automations.tsx'
import { CommercePage } from './pages/commerce.tsx'
import { SitePage, SitesPage } from './pages/content.tsx'
import { CredentialsPage } from './pages/credentials.tsx'
import { HomePage } from './pages/home.tsx'
import { ConnectionPage, IntegrationsPage } from './pages/integrations.tsx'
import { InvitationPage } from './pages/invitation.tsx'
import { JobsPage } from './pages/jobs.tsx'
import { McpClientsPage, McpConsentPage } from './pages/mcp-clients.tsx'
import { PreviewPage } from './pages/preview.tsx'
import { RequestLogPage } from './pages/request-log.tsx'
import { SignIn } from './pages/sign-in.tsx'
import { SourcesPage } from './pages/sources.tsx'
import { StoryPage } from './pages/story.tsx'
import { TagsPage } from './pages/tags.tsx'
import { AcceptInvitation, CreateTenant, TeamPage } from './pages/team.tsx'
import { UsagePage } from './pages/usage.tsx'
import { WebhookPage, WebhooksPage } from './pages/webhooks.tsx'
import { loadRenderer } from './renderer.ts'
import { ConfirmHost, ErrorNote, Loading, type Session, SessionContext } from './ui.tsx'
import { workspaceZone } from './zone.ts'

/** Hash routes (#/keys, #/webhooks/<id>) so any static host serves the app without rewrites. */
function useRoute(): string[] {
  // A query after the route (#/integrations?connect=slack) is the page's own, not part of the route.
  const read = () => location.hash.replace(/^#\/?/, '').split('?')[0]!.split('/').filter(Boolean)
  const [route, setRoute] = useState(read)
  useEffect(() => {
    const on = () => setRoute(read())
    window.addEventListener('hashchange', on)
    return () => window.removeEventListener('hashchange', on)
  }, [])
  return route
}

/**
 * The article editor and the renderer its preview uses are chunks of their own (dashboard/build.ts),
 * fetched together when an article is opened, so the first page loads without them.
 */
function ArticleEditor({ id }: { id: string }): VNode {
  const [page, setPage] = useState<{ Editor?: (p: { id: string }) => VNode; error?: unknown }>({})
  useEffect(() => {
    // Fetched beside the editor, not after it; the preview shows the error should this fail.
    loadRenderer().catch(() => undefined)
    import('./pages/editor.tsx').then(
      (m) => setPage({ Editor: m.ArticleEditorPage }),
      (error) => setPage({ error }),
    )
  }, [])
  if (page.error) return <ErrorNote error={page.error} />
  return page.Editor ? <page.Editor id={id} /> : <Loading label="Opening the editor" />
}

function Page({ route, session }: { route: string[]; session: Session }): VNode {
  const [top, id] = route
  switch (top) {
    case 'review':
      return <ArticlesPage view="review" />
    case 'scheduled':
      return <ArticlesPage view="scheduled" />
    case 'drafts':
      return <ArticlesPage view="drafts" userId={session.userId} />
    case 'sites':
      return id ? <SitePage id={id} /> : <SitesPage />
    case 'articles':
      return id ? <ArticleEditor id={id} /> : <ArticlesPage />
    case 'assistant':
      return <AssistantPage id={id} />
    case 'automations':
      return <AutomationsPage />
    case 'approvals':
      return <ApprovalsPage />
    case 'tags':
      return <TagsPage />
    case 'story':
      return <StoryPage id={id ?? ''} />
    case 'keys':
      return id ? <ApiKeyPage id={id} /> : <ApiKeysPage />
    case 'request-log':
      return <RequestLogPage initialKey={id ?? ''} />
    case 'credentials':
      return <CredentialsPage />
    case 'integrations':
      return id ? <ConnectionPage id={id} /> : <IntegrationsPage />
    case 'webhooks':
      return id ? <WebhookPage id={id} /> : <WebhooksPage />
    case 'commerce':
      return <CommercePage />
    case 'sources':
      return <SourcesPage />
    case 'affiliate':
      return <AffiliatePage />
    case 'jobs':
      return <JobsPage />
    case 'usage':
      return <UsagePage />
    case 'team':
      return <TeamPage />
    case 'mcp-clients':
      return <McpClientsPage />
    case 'oauth':
      return <McpConsentPage id={route[2] ?? ''} />
    default:
      return <HomePage />
  }
}

/** One menu entry, with the count of what waits there (drafts for review, approvals). */
function MenuLink({ n, top, tenantId }: { n: NavEntry; top: string; tenantId: string }): VNode {
  return (
    <a href={`#/${n.path}`} aria-current={top === n.path ? 'page' : undefined}>
      {n.label}
      {n.path === 'approvals' ? <ApprovalsBadge key={tenantId} /> : null}
      {n.path === 'review' ? <ReviewBadge key={tenantId} /> : null}
    </a>
  )
}

/** The menu for the member's role (navigation.ts); a member's plumbing is folded under Settings. */
function Menu({ role, top, tenantId }: { role: Session['role']; top: string; tenantId: string }): VNode {
  const entries = navFor(role)
  const folded = foldedGroup(role)
  const groups = [...new Set(entries.map((n) => n.group))]
  return (
    <nav aria-label="Sections" data-role={role}>
      {groups.map((group) => {
        const links = entries
          .filter((n) => n.group === group)
          .map((n) => <MenuLink n={n} top={top} tenantId={tenantId} />)
        if (!group) return <>{links}</>
        if (group === folded)
          return (
            <details class="nav-fold" open={entries.some((n) => n.group === group && n.path === top)}>
              <summary class="nav-group">{group}</summary>
              {links}
            </details>
          )
        return (
          <>
            <span class="nav-group">{group}</span>
            {links}
          </>
        )
      })}
    </nav>
  )
}

function Shell({
  session,
  tenants,
  onSwitch,
}: {
  session: Session
  tenants: Tenant[]
  onSwitch: (id: string) => Promise<void>
}): VNode {
  const route = useRoute()
  const [switching, setSwitching] = useState<unknown>()
  const change = async (e: Event) => {
    const id = (e.target as HTMLSelectElement).value
    if (id === '+') {
      location.hash = '#/new-tenant'
      return
    }
    setSwitching(true)
    try {
      await onSwitch(id)
      setSwitching(undefined)
    } catch (err) {
      setSwitching(err)
    }
  }
  const top = route[0] ?? 'home'
  return (
    <SessionContext.Provider value={session}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link; its click moves focus to the content */}
      <a
        class="skip"
        href="#main"
        onClick={(e: Event) => {
          e.preventDefault()
          document.getElementById('main')?.focus()
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <strong class="brand">Tenant Platform</strong>
        <label class="switcher">
          <span class="sr">Workspace</span>
          <select
            onChange={change}
            value={session.tenantId}
            disabled={switching === true}
            aria-label="Workspace"
            title={tenants.find((t) => t.id === session.tenantId)?.name}
          >
            {tenants.map((t) => (
              <option value={t.id}>
                {t.name} ({t.role})
              </option>
            ))}
            <option value="+">+ New workspace…</option>
          </select>
        </label>
        {switching === true ? (
          <span class="spinner" role="status" aria-label="Switching workspace"></span>
        ) : null}
        <span class="grow"></span>
        <span class="muted user">{session.email}</span>
        <button type="button" onClick={() => supabase.auth.signOut()}>
          Sign out
        </button>
      </header>
      {switching && switching !== true ? <ErrorNote error={switching} /> : null}
      <div class="layout">
        <Menu role={session.role} top={top} tenantId={session.tenantId} />
        <main id="main" tabindex={-1}>
          <Page key={`${session.tenantId}/${route.join('/')}`} route={route} session={session} />
        </main>
      </div>
      <ConfirmHost />
    </SessionContext.Provider>
  )
}

/** After an OAuth connection the platform redirects here with ?status=connected|error. */
function OAuthReturn(): VNode | null {
  const params = new URLSearchParams(location.search)
  const status = params.get('status')
  const [shown, setShown] = useState(Boolean(status))
  if (!shown || !status) return null
  const close = () => {
    history.replaceState(null, '', location.pathname + location.hash)
    setShown(false)
  }
  return (
    <div class={status === 'connected' ? 'note ok' : 'error'} role="status">
      {status === 'connected'
        ? `Connected ${params.get('integration') ?? 'the integration'}.`
        : `Connection failed: ${params.get('error_description') ?? params.get('error')}`}
      <button type="button" class="link" onClick={close}>
        Dismiss
      </button>
    </div>
  )
}

function App(): VNode {
  const route = useRoute()
  const [auth, setAuth] = useState<AuthSession | null | undefined>(undefined)
  const [tenants, setTenants] = useState<Tenant[] | undefined>()
  const [error, setError] = useState<unknown>()

  useEffect(() => {
    supabase.auth.getSession().then(({ data }) => setAuth(data.session))
    const { data } = supabase.auth.onAuthStateChange((_event, s) => setAuth(s))
    return () => data.subscription.unsubscribe()
  }, [])

  const loadTenants = useCallback(async () => {
    setError(undefined)
    try {
      setTenants((await listTenants()).data)
    } catch (e) {
      setError(e)
    }
  }, [])

  const userId = auth?.user.id
  useEffect(() => {
    setTenants(undefined)
    if (userId) loadTenants()
  }, [userId, loadTenants])

  // The access token names the tenant; after switching, a refreshed session carries the new one.
  const switchTenant = async (id: string) => {
    await activate(id)
    const { error } = await supabase.auth.refreshSession()
    if (error) throw error
    await loadTenants()
  }

  if (!config) {
    return (
      <main class="narrow">
        <div class="error" role="alert">
          config.js is missing: it sets window.DASHBOARD_CONFIG = {'{'}supabaseUrl, supabaseAnonKey{'}'}.
        </div>
      </main>
    )
  }
  if (auth === undefined)
    return (
      <main class="narrow">
        <Loading />
      </main>
    )
  // The invitation e-mail's link: shown signed in or not, it signs the invitee up or in itself.
  if (route[0] === 'invitation' && route[1]) {
    const accepted = async (tenantId: string) => {
      await activate(tenantId)
      await supabase.auth.refreshSession()
      await loadTenants()
      location.hash = '#/home'
    }
    return <InvitationPage token={route[1]} auth={auth} onAccepted={accepted} />
  }
  // A preview link: the article as readers will see it, for anyone holding the link.
  if (route[0] === 'preview' && route[1]) return <PreviewPage token={route[1]} />
  if (!auth) return <SignIn />
  if (error) {
    return (
      <main class="narrow">
        <ErrorNote error={error} />
        <button type="button" onClick={loadTenants}>
          Retry
        </button>
      </main>
    )
  }
  if (!tenants)
    return (
      <main class="narrow">
        <Loading label="Loading your workspaces" />
      </main>
    )

  const claims = JSON.parse(atob(auth.access_token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')))
  const active = tenants.find((t) => t.id === claims.app_metadata?.tenant_id) ?? tenants.find((t) => t.active)
  if (!active || route[0] === 'new-tenant') {
    const created = async (tenant?: Tenant) => {
      await supabase.auth.refreshSession()
      await loadTenants()
      // A page the user was sent to (an MCP client's consent page) stays; else the new tenant's Home.
      if (!route[0] || route[0] === 'new-tenant') location.hash = tenant ? '#/home' : '#/team'
    }
    return (
      <main class="narrow">
        <header class="row">
          <strong class="brand grow">Tenant Platform</strong>
          <span class="muted">{auth.user.email}</span>
          {active ? <a href="#/home">Back</a> : null}
          <button type="button" onClick={() => supabase.auth.signOut()}>
            Sign out
          </button>
        </header>
        <CreateTenant onCreated={created} first={!active} />
        <AcceptInvitation onAccepted={created} />
      </main>
    )
  }
  const session: Session = {
    email: auth.user.email ?? '',
    userId: auth.user.id,
    tenantId: active.id,
    tenantName: active.name,
    role: active.role,
    timeZone: workspaceZone(active.settings?.timezone),
    refresh: async () => {
      await supabase.auth.refreshSession()
      await loadTenants()
    },
  }
  return (
    <>
      <OAuthReturn />
      <Shell session={session} tenants={tenants} onSwitch={switchTenant} />
    </>
  )
}

const root = document.getElementById('app')!
root.textContent = ''
render(isFramed() ? <FramedRefusal /> : <App />, root)
