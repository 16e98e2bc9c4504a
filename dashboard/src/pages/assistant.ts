import { EventSourceParserStream } from 'eventsource-parser/stream'
import type { VNode } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError, api, config, type Page, supabase } from '../api.ts'
import { ago, num } from '../format.ts'
import { Action, canWrite, ErrorNote, html, Loaded, useLoad, useSession } from '../ui.ts'
import { type AssistantSettings, SettingsPanel } from './assistant-settings.ts'
import { Automations } from './automations.ts'

/**
 * The assistant: conversations on the left, the chat on the right. An answer streams in as the
 * model writes it (text/event-stream); tool calls show as cards with their arguments and outcome,
 * refusals with the reason, and calls that wait for approval with Approve and Deny for owners and
 * admins. Each turn shows its tokens against the month's quota.
 */

interface ToolCall {
  id: string
  turn_id: string
  message_id: string
  name: string
  tool: string
  arguments: Record<string, unknown>
  status: string
  result: string | null
}
interface Message {
  id: string
  turn_id: string | null
  role: 'user' | 'assistant'
  content: string
  tool_calls: ToolCall[]
  created_at: string
}
interface Turn {
  id: string
  status: 'running' | 'awaiting_approval' | 'completed' | 'failed' | 'stopped'
  usage: { input_tokens: number; output_tokens: number }
  error: string | null
  model: string
}
interface Conversation {
  id: string
  title: string
  last_message_at: string | null
  created_at: string
  usage: { input_tokens: number; output_tokens: number }
}
interface Detail extends Conversation {
  messages: Message[]
  turns: Turn[]
}
interface TurnResult {
  turn: Turn
  quota: { used: number; limit: number | null }
}
type Settings = AssistantSettings

/** The AI keys saved for another environment than the assistant's: the usual reason it has no model. */
interface SavedAiKey {
  name: string
  environment: string
  provider: { slug: string; name: string }
}

/**
 * Why the assistant has no model, and the next step: the environment it reads keys from, and any
 * OpenAI or Anthropic key already saved for another one.
 */
function NeedsModel({ settings }: { settings: Settings }): VNode {
  const env = settings.credential_environment
  const saved = useLoad(() => api<Page<SavedAiKey>>('GET', '/api/credentials?limit=100'))
  const elsewhere = (saved.data?.data ?? []).filter(
    (c) => ['openai', 'anthropic'].includes(c.provider.slug) && c.environment !== env,
  )
  return html`<div class="note warn" role="alert">The assistant needs an AI model: add an OpenAI or Anthropic key
    (category AI) for the <strong>${env}</strong> environment under <a href="#/credentials">Credentials</a>, then come back.
    ${elsewhere.length ? html`<br />Saved for another environment, so not used: ${elsewhere.map((c, i) => html`${i ? ', ' : ''}<strong>${c.name}</strong> (${c.provider.name}, ${c.environment})`)}. Add the key again with environment ${env}.` : null}</div>`
}

const outcomeClass: Record<string, string> = {
  ok: 'ok',
  refused: 'bad',
  invalid: 'bad',
  failed: 'bad',
  denied: 'bad',
  interrupted: 'bad',
  awaiting_approval: 'pending',
  running: 'pending',
  approved: 'pending',
}

/** Posts to the assistant with Accept: text/event-stream and hands each event over as it arrives. */
async function streamTurn(
  path: string,
  body: unknown,
  onEvent: (event: string, data: any) => void,
): Promise<void> {
  const { data } = await supabase.auth.getSession()
  const res = await fetch(`${config?.supabaseUrl ?? location.origin}/functions/v1/assistant${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${data.session?.access_token ?? ''}`,
      apikey: config?.supabaseAnonKey ?? '',
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  })
  if (!res.ok || !res.body) {
    const parsed = await res.json().catch(() => null)
    throw new ApiError(
      res.status,
      parsed?.code ?? `HTTP_${res.status}`,
      parsed?.message ?? `The server answered ${res.status}`,
      parsed?.details ?? [],
      typeof parsed?.retryAfter === 'number' ? parsed.retryAfter : undefined,
    )
  }
  // eventsource-parser reads the stream as the SSE specification does: CRLF or LF, data over
  // several lines, comments and retry hints.
  const reader = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    if (value.event && value.data) onEvent(value.event, JSON.parse(value.data))
  }
}

function ToolCard({
  call,
  conversationId,
  onDecided,
}: {
  call: ToolCall
  conversationId: string
  onDecided: (run: () => Promise<void>) => Promise<void>
}): VNode {
  const session = useSession()
  const waiting = call.status === 'awaiting_approval'
  const decide = (approve: boolean) =>
    onDecided(() =>
      streamTurn(`/conversations/${conversationId}/approvals/${call.id}`, { approve }, () => {}),
    )
  return html`<div class="card tool-call" data-tool=${call.tool} data-status=${call.status}>
    <div class="row wrap">
      <strong>${call.tool}</strong>
      <span class=${`pill ${outcomeClass[call.status] ?? ''}`}>${call.status.replace('_', ' ')}</span>
    </div>
    <pre class="mono">${JSON.stringify(call.arguments, null, 2)}</pre>
    ${call.result ? html`<details><summary>${call.status === 'ok' ? 'Result' : 'Why'}</summary><pre class="mono">${call.result.slice(0, 4000)}</pre></details>` : null}
    ${
      waiting
        ? canWrite(session)
          ? html`<div class="row">
              <${Action} kind="primary" run=${() => decide(true)}>Approve<//>
              <${Action} kind="danger" run=${() => decide(false)}>Deny<//>
            </div>`
          : html`<p class="muted">Waits for an owner or admin to approve it.</p>`
        : null
    }
  </div>`
}

function Chat({
  id,
  quotaText,
  onTurn,
}: {
  id: string
  quotaText: (q: TurnResult['quota']) => void
  onTurn: () => void
}): VNode {
  const detail = useLoad(() => api<Detail>('GET', `/v1/assistant/conversations/${id}`), [id])
  const [draft, setDraft] = useState('')
  const [live, setLive] = useState<{ user: string; text: string; calls: ToolCall[] } | null>(null)
  const [error, setError] = useState<unknown>()
  const bottom = useRef<HTMLDivElement>(null)
  useEffect(() => bottom.current?.scrollIntoView?.({ block: 'end' }), [detail.data, live])

  const run = async (go: () => Promise<void>) => {
    setError(undefined)
    try {
      await go()
    } catch (e) {
      setError(e)
    } finally {
      setLive(null)
      detail.reload()
      onTurn()
    }
  }
  const send = async (e: Event) => {
    e.preventDefault()
    const content = draft.trim()
    if (!content) return
    setDraft('')
    const state = { user: content, text: '', calls: [] as ToolCall[] }
    setLive({ ...state })
    await run(() =>
      streamTurn(`/conversations/${id}/messages`, { content }, (event, data) => {
        if (event === 'text.delta') state.text += data.text
        if (event === 'tool_call.started' || event === 'tool_call.approval_required')
          state.calls = [
            ...state.calls,
            {
              ...data,
              status: event === 'tool_call.started' ? 'running' : 'awaiting_approval',
              result: null,
            },
          ]
        if (event === 'tool_call.completed')
          state.calls = state.calls.map((c) =>
            c.id === data.id ? { ...c, status: data.status, result: data.result } : c,
          )
        if (event === 'turn.ended') quotaText(data.quota)
        setLive({ ...state })
      }),
    )
  }
  return html`<${Loaded} state=${detail}>${(d: Detail) => {
    const last = d.turns.at(-1)
    const busy = Boolean(live) || last?.status === 'running'
    const turnOf = (m: Message) => d.turns.find((t) => t.id === m.turn_id)
    return html`<div class="chat">
      <h2>${d.title}</h2>
      <ol class="messages">
        ${d.messages.map((m, i) => {
          const turn = turnOf(m)
          const lastOfTurn = m.role === 'assistant' && d.messages[i + 1]?.turn_id !== m.turn_id
          return html`<li class=${`msg ${m.role}`} data-role=${m.role}>
            ${m.content ? html`<div class="bubble">${m.content}</div>` : null}
            ${m.tool_calls.map((c) => html`<${ToolCard} call=${c} conversationId=${d.id} onDecided=${run} />`)}
            ${
              lastOfTurn && turn
                ? html`<p class="muted turn-usage">${num(turn.usage.input_tokens + turn.usage.output_tokens)} tokens
                  (${num(turn.usage.input_tokens)} in, ${num(turn.usage.output_tokens)} out) · ${turn.model}
                  ${turn.status !== 'completed' ? html` · <span class=${`pill ${turn.status === 'awaiting_approval' ? 'pending' : 'bad'}`}>${turn.status.replace('_', ' ')}</span>` : null}
                  ${turn.error ? html`<br /><small>${turn.error}</small>` : null}</p>`
                : null
            }
          </li>`
        })}
        ${
          live
            ? html`<li class="msg user" data-role="user"><div class="bubble">${live.user}</div></li>
              <li class="msg assistant" data-role="assistant" aria-live="polite">
                ${live.calls.map((c) => html`<${ToolCard} call=${c} conversationId=${d.id} onDecided=${run} />`)}
                <div class="bubble">${live.text || html`<span class="spinner" aria-hidden="true"></span>Thinking…`}</div>
              </li>`
            : null
        }
      </ol>
      <div ref=${bottom}></div>
      <${ErrorNote} error=${error} />
      <form class="composer" onSubmit=${send}>
        <label class="sr" for="assistant-input">Message</label>
        <textarea id="assistant-input" rows="3" maxlength="32000" placeholder="Ask the assistant…" value=${draft}
          onInput=${(e: Event) => setDraft((e.target as HTMLTextAreaElement).value)}
          onKeyDown=${(e: KeyboardEvent) => {
            if (e.key === 'Enter' && !e.shiftKey) send(e)
          }}></textarea>
        <button type="submit" class="primary" disabled=${busy || last?.status === 'awaiting_approval'}>Send</button>
      </form>
    </div>`
  }}<//>`
}

export function AssistantPage({ id }: { id?: string }): VNode {
  const session = useSession()
  const settings = useLoad(() => api<Settings>('GET', '/v1/assistant/settings'))
  const list = useLoad(() => api<Page<Conversation>>('GET', '/v1/assistant/conversations?limit=50'), [id])
  const usage = useLoad(() =>
    api<{ products: { product: string; used: number; quota: number | null }[] }>('GET', '/api/usage'),
  )
  const [quota, setQuota] = useState<TurnResult['quota'] | null>(null)
  const assistant = usage.data?.products.find((p) => p.product === 'assistant')
  const shown = quota ?? (assistant ? { used: assistant.used, limit: assistant.quota } : null)
  const start = async () => {
    const made = await api<Conversation>('POST', '/v1/assistant/conversations', {})
    location.hash = `#/assistant/${made.id}`
  }
  return html`<section class="assistant">
    <h1>Assistant</h1>
    <p class="muted">Ask the assistant of <strong>${session.tenantName}</strong> to read and write your content and to act
      in your connected tools, under the tools' permissions.
      ${shown ? html` Tokens this month: <strong class="quota">${num(shown.used)}${shown.limit !== null ? ` of ${num(shown.limit)}` : ''}</strong>.` : null}</p>
    <${Loaded} state=${settings}>${(s: Settings) =>
      html`<${SettingsPanel} settings=${s} saved=${settings.reload} />${s.effective.credential ? null : html`<${NeedsModel} settings=${s} />`}`}<//>
    <div class="assistant-layout">
      <aside class="conversations">
        <${Action} kind="primary" run=${start}>New conversation<//>
        <${Loaded} state=${list}>${(page: Page<Conversation>) =>
          page.data.length
            ? html`<ul class="items">${page.data.map(
                (
                  c,
                ) => html`<li><a href=${`#/assistant/${c.id}`} aria-current=${c.id === id ? 'page' : undefined}>${c.title}</a>
                  <br /><small class="muted">${ago(c.last_message_at ?? c.created_at)}</small></li>`,
              )}</ul>`
            : html`<p class="muted">No conversations yet.</p>`}<//>
      </aside>
      <div class="grow">
        ${id ? html`<${Chat} key=${id} id=${id} quotaText=${setQuota} onTurn=${list.reload} />` : html`<p class="muted">Start a conversation, or pick one.</p>`}
      </div>
    </div>
    <${Automations} />
  </section>`
}
