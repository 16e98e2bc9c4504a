import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { type Conversation, useConversations } from '../data/assistant.ts'
import { when } from '../format.ts'
import { Action, Loaded } from '../ui.tsx'

/**
 * The conversations as chat pages list them: a New chat button and a search box on top, then the
 * conversations people started, newest first, under date headings (Today, Yesterday, Previous 7
 * days, Previous 30 days, then by month). Automation runs are not here: they have their own page.
 * A title is one line, cut with an ellipsis (the whole title on hover and to screen readers). On a
 * narrow screen with a conversation open, the list folds behind a "Conversations" button.
 */

const DAY = 86_400_000

/** The heading a conversation goes under, by when it started, in the reader's time zone. */
function dateGroup(iso: string, now: Date): string {
  const at = new Date(iso)
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()
  const days = Math.round((startOf(now) - startOf(at)) / DAY)
  if (days <= 0) return 'Today'
  if (days === 1) return 'Yesterday'
  if (days <= 7) return 'Previous 7 days'
  if (days <= 30) return 'Previous 30 days'
  return at.toLocaleDateString(undefined, {
    month: 'long',
    year: at.getFullYear() === now.getFullYear() ? undefined : 'numeric',
  })
}

/** The list in its date groups, in the list's order (newest first). */
function grouped(list: Conversation[], now = new Date()): [string, Conversation[]][] {
  const groups: [string, Conversation[]][] = []
  for (const c of list) {
    const label = dateGroup(c.created_at, now)
    const last = groups.at(-1)
    if (last?.[0] === label) last[1].push(c)
    else groups.push([label, [c]])
  }
  return groups
}

export function ConversationSidebar({
  id,
  start,
  reloadKey,
}: {
  id?: string
  start: () => Promise<void>
  /** Changes when a turn ended: a new title or a new conversation shows. */
  reloadKey: number
}): VNode {
  const [q, setQ] = useState('')
  const [open, setOpen] = useState(false)
  const list = useConversations(q.trim(), [id, q, reloadKey])
  return (
    <aside class={`conversations${id && !open ? ' folded' : ''}`} aria-label="Conversations">
      <div class="row sidebar-head">
        <Action kind="primary" run={start}>
          New conversation
        </Action>
        {id ? (
          <button type="button" class="list-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide conversations' : 'Conversations'}
          </button>
        ) : null}
      </div>
      <div class="sidebar-body">
        <label class="sr" for="conversation-search">
          Search conversations
        </label>
        <input
          id="conversation-search"
          type="search"
          placeholder="Search conversations"
          maxlength={200}
          value={q}
          onInput={(e: Event) => setQ((e.target as HTMLInputElement).value)}
        />
        <Loaded state={list}>
          {(page) =>
            page.data.length ? (
              <div class="conversation-groups">
                {grouped(page.data).map(([label, items]) => (
                  <>
                    <h3 class="group-label">{label}</h3>
                    <ul class="items">
                      {items.map((c) => (
                        <li>
                          <a
                            href={`#/assistant/${c.id}`}
                            title={`${c.title} · ${when(c.created_at)}`}
                            aria-current={c.id === id ? 'page' : undefined}
                            onClick={() => setOpen(false)}
                          >
                            {c.title}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </>
                ))}
              </div>
            ) : (
              <p class="muted">{q.trim() ? 'No conversation matches.' : 'No conversations yet.'}</p>
            )
          }
        </Loaded>
        <p class="muted small">
          Runs of automations are under <a href="#/automations">Automations</a>.
        </p>
      </div>
    </aside>
  )
}
