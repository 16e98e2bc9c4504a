import { EventSourceParserStream } from 'eventsource-parser/stream'
import type { VNode } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { apiErrorFrom, functionFetch } from '../api.ts'
import {
  type AssistantSettings,
  type ConversationDetail,
  cancelTurn,
  createConversation,
  deleteConversation,
  type Message,
  renameConversation,
  type ToolCall,
  type Turn,
  type TurnQuota,
  useAssistantSettings,
  useConversation,
} from '../data/assistant.ts'
import { useCredentials } from '../data/credentials.ts'
import { useUsage } from '../data/usage.ts'
import { num } from '../format.ts'
import { Action, canWrite, ErrorNote, Loaded, useSession } from '../ui.tsx'
import { MarkdownText, ToolArguments, ToolResult, VersionPicker } from './assistant-chat.tsx'
import { SettingsPanel } from './assistant-settings.tsx'
import { ConversationSidebar } from './assistant-sidebar.tsx'

/**
 * The assistant: conversations in a sidebar on the left (assistant-sidebar.tsx), the chat taking
 * the rest of the width; automations have their own page (automations.tsx). An answer streams in as the
 * model writes it (text/event-stream); tool calls show as cards with their arguments and outcome,
 * refusals with the reason, and calls that wait for approval with Approve and Deny for owners and
 * admins. Each turn shows its tokens against the month's quota. A running turn can be stopped, the
 * last answer regenerated and the last message edited; earlier versions stay browsable.
 */

/**
 * Why the assistant has no model, and the next step: the environment it reads keys from, and any
 * OpenAI or Anthropic key already saved for another one.
 */
function NeedsModel({ settings }: { settings: AssistantSettings }): VNode {
  const env = settings.credential_environment
  const saved = useCredentials()
  const elsewhere = (saved.data?.data ?? []).filter(
    (c) => ['openai', 'anthropic'].includes(c.provider.slug) && c.environment !== env,
  )
  return (
    <div class="note warn" role="alert">
      The assistant needs an AI model: add an OpenAI or Anthropic key (category AI) for the{' '}
      <strong>{env}</strong> environment under <a href="#/credentials">Credentials</a>, then come back.
      {elsewhere.length ? (
        <>
          <br />
          Saved for another environment, so not used:{' '}
          {elsewhere.map((c, i) => (
            <>
              {i ? ', ' : ''}
              <strong>{c.name}</strong> ({c.provider.name}, {c.environment})
            </>
          ))}
          . Add the key again with environment {env}.
        </>
      ) : null}
    </div>
  )
}

const outcomeClass: Record<string, string> = {
  ok: 'ok',
  refused: 'bad',
  invalid: 'bad',
  failed: 'bad',
  denied: 'bad',
  interrupted: 'bad',
  cancelled: 'bad',
  awaiting_approval: 'pending',
  running: 'pending',
  approved: 'pending',
}

/** A turn's answer as it streams; `resumed`: re-attached after a reload (its user message is stored). */
interface LiveTurn {
  user: string
  text: string
  calls: ToolCall[]
  turnId?: string
  resumed?: boolean
  ended?: boolean
}

/** Posts to the assistant with Accept: text/event-stream and hands each event over as it arrives. */
async function streamTurn(
  path: string,
  body: unknown,
  onEvent: (event: string, data: any, id?: string) => void,
  method = 'POST',
): Promise<void> {
  const res = await functionFetch(`/functions/v1/assistant${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    ...(method !== 'GET' && { body: JSON.stringify(body) }),
  })
  if (!res.ok || !res.body) throw await apiErrorFrom(res)
  // eventsource-parser reads the stream as the SSE specification does: CRLF or LF, data over
  // several lines, comments and retry hints.
  const reader = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    if (value.event && value.data) onEvent(value.event, JSON.parse(value.data), value.id)
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
  return (
    <div class="card tool-call" data-tool={call.tool} data-status={call.status}>
      <div class="row wrap">
        <strong>{call.tool}</strong>
        <span class={`pill ${outcomeClass[call.status] ?? ''}`}>{call.status.replace('_', ' ')}</span>
      </div>
      {call.article ? (
        <p class="tool-article">
          Article: <a href={`#/articles/${call.article.id}`}>{call.article.title}</a>
        </p>
      ) : null}
      <ToolArguments args={call.arguments} />
      {call.result ? (
        <ToolResult result={call.result} label={call.status === 'ok' ? 'Result' : 'Why'} />
      ) : null}
      {waiting ? (
        canWrite(session) ? (
          <div class="row">
            <Action kind="primary" run={() => decide(true)}>
              Approve
            </Action>
            <Action kind="danger" run={() => decide(false)}>
              Deny
            </Action>
          </div>
        ) : (
          <p class="muted">Waits for an owner or admin to approve it.</p>
        )
      ) : null}
    </div>
  )
}

interface Exchange {
  turn: Turn | undefined
  messages: Message[]
  versions: number
}

/** The conversation's messages as exchanges (a user message and its answers), with their versions. */
function exchangesOf(d: ConversationDetail, picked: Record<string, number>): Exchange[] {
  const out: Exchange[] = []
  for (const m of d.messages) {
    if (m.role === 'user' || out.length === 0) {
      const turn = d.turns.find((t) => !t.superseded && t.user_message_id === m.id)
      out.push({ turn, messages: [m], versions: 1 })
    } else out.at(-1)!.messages.push(m)
  }
  for (const x of out) {
    if (!x.turn) continue
    const alternatives = d.alternatives.filter((a) => a.exchange_id === x.turn!.exchange_id)
    x.versions = alternatives.length + 1
    const alternative = alternatives.find((a) => a.version === picked[x.turn!.exchange_id])
    if (alternative) x.messages = alternative.messages
  }
  return out
}

function Chat({
  id,
  quotaText,
  onTurn,
}: {
  id: string
  quotaText: (q: TurnQuota) => void
  onTurn: () => void
}): VNode {
  const detail = useConversation(id)
  const [draft, setDraft] = useState('')
  const [live, setLive] = useState<LiveTurn | null>(null)
  const resumed = useRef<string | null>(null)
  const [error, setError] = useState<unknown>()
  const [picked, setPicked] = useState<Record<string, number>>({})
  const [editing, setEditing] = useState<string | null>(null)
  const [renaming, setRenaming] = useState<string | null>(null)
  const bottom = useRef<HTMLDivElement>(null)
  useEffect(() => bottom.current?.scrollIntoView?.({ block: 'end' }), [detail.data, live])

  const run = async (go: () => Promise<void>) => {
    setError(undefined)
    try {
      await go()
    } catch (e) {
      setError(e)
    } finally {
      // The streamed answer stays on screen until the stored one replaces it (no flicker).
      onTurn()
      await detail.reload()
      setLive(null)
      setPicked({})
    }
  }
  /** Shows a turn's events as they arrive: a turn run now, or one re-attached to. */
  const follow = (state: LiveTurn) => (event: string, data: any) => {
    if (event === 'turn.started') state.turnId = data.turn_id
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
    if (event === 'turn.ended') {
      state.ended = true
      quotaText(data.quota)
    }
    setLive({ ...state })
  }
  /** Runs a turn (a message, a regenerate, an edit) and shows its events as they arrive. */
  const stream = (path: string, body: unknown, user: string, method = 'POST') => {
    const state: LiveTurn = { user, text: '', calls: [] }
    setLive({ ...state })
    return run(() => streamTurn(path, body, follow(state), method))
  }
  /**
   * A turn that runs while the page is (re)loaded: its stream from the start (the stored events,
   * ADR 0024), then the rest as it comes. One request follows a turn for at most 2 minutes, so it
   * re-attaches from the last event seen until turn.ended, a bounded number of times.
   */
  const resume = (turnId: string) => {
    const state: LiveTurn = { user: '', text: '', calls: [], turnId, resumed: true }
    setLive({ ...state })
    return run(async () => {
      let lastId: string | undefined
      const onEvent = follow(state)
      for (let attempt = 0; attempt < 6 && !state.ended; attempt++)
        await streamTurn(
          `/conversations/${id}/turns/${turnId}/stream${lastId ? `?last_event_id=${lastId}` : ''}`,
          undefined,
          (event, data, eventId) => {
            if (eventId) lastId = eventId
            onEvent(event, data)
          },
          'GET',
        )
    })
  }
  useEffect(() => {
    const last = detail.data?.turns.filter((t) => !t.superseded).at(-1)
    if (live || last?.status !== 'running' || resumed.current === last.id) return
    resumed.current = last.id
    void resume(last.id)
  }, [detail.data])
  const send = async (e: Event) => {
    e.preventDefault()
    const content = draft.trim()
    if (!content) return
    setDraft('')
    await stream(`/conversations/${id}/messages`, { content }, content)
  }
  const stop = async (turnId: string | undefined) => {
    if (!turnId) return
    await cancelTurn(id, turnId)
  }
  return (
    <Loaded state={detail}>
      {(d) => {
        const last = d.turns.filter((t) => !t.superseded).at(-1)
        const running = Boolean(live) || last?.status === 'running'
        const waiting = last?.status === 'awaiting_approval'
        const exchanges = exchangesOf(d, picked)
        const lastExchange = exchanges.at(-1)
        const reason = running
          ? 'The assistant is answering: wait, or stop it.'
          : waiting
            ? 'A tool call waits for approval (above): an owner or admin approves or denies it, then the turn goes on.'
            : null
        return (
          <div class="chat">
            {renaming === null ? (
              <div class="row wrap chat-head">
                <h2>{d.title}</h2>
                <button type="button" class="link" onClick={() => setRenaming(d.title)}>
                  Rename
                </button>
                <Action
                  kind="danger"
                  run={async () => {
                    await deleteConversation(d.id)
                    location.hash = '#/assistant'
                  }}
                >
                  Delete
                </Action>
              </div>
            ) : (
              <form
                class="row wrap chat-head"
                onSubmit={(e: Event) => {
                  e.preventDefault()
                  void run(async () => {
                    await renameConversation(d.id, renaming)
                    setRenaming(null)
                  })
                }}
              >
                <label class="sr" for="rename-input">
                  Title
                </label>
                <input
                  id="rename-input"
                  maxlength={200}
                  required
                  value={renaming}
                  onInput={(e: Event) => setRenaming((e.target as HTMLInputElement).value)}
                />
                <button type="submit" class="primary">
                  Save
                </button>
                <button type="button" onClick={() => setRenaming(null)}>
                  Cancel
                </button>
              </form>
            )}
            <ol class="messages">
              {exchanges.map((x) => {
                const turn = x.turn
                const current =
                  !turn || !(turn.exchange_id in picked) || picked[turn.exchange_id] === turn.version
                const isLast = x === lastExchange && current && !running && !waiting
                const shownVersion = turn ? (picked[turn.exchange_id] ?? turn.version) : 1
                // A re-attached stream replays the running turn's answers from the start: shown once, live.
                const replayed = (m: Message) =>
                  live?.resumed && m.role === 'assistant' && m.turn_id === live.turnId
                return x.messages.map((m, i) => {
                  if (replayed(m)) return null
                  const lastOfTurn = m.role === 'assistant' && i === x.messages.length - 1
                  if (m.role === 'user' && editing !== null && isLast)
                    return (
                      <li class="msg user" data-role="user">
                        <form
                          class="composer"
                          onSubmit={(e: Event) => {
                            e.preventDefault()
                            const content = editing.trim()
                            if (!content) return
                            setEditing(null)
                            void stream(
                              `/conversations/${d.id}/messages/${m.id}`,
                              { content },
                              content,
                              'PUT',
                            )
                          }}
                        >
                          <label class="sr" for="edit-input">
                            Edit your message
                          </label>
                          <textarea
                            id="edit-input"
                            rows={3}
                            maxlength={32000}
                            value={editing}
                            onInput={(e: Event) => setEditing((e.target as HTMLTextAreaElement).value)}
                          ></textarea>
                          <div class="row">
                            <button type="submit" class="primary">
                              Save and send
                            </button>
                            <button type="button" onClick={() => setEditing(null)}>
                              Cancel
                            </button>
                          </div>
                        </form>
                      </li>
                    )
                  return (
                    <li class={`msg ${m.role}`} data-role={m.role}>
                      {m.content ? (
                        m.role === 'assistant' ? (
                          <MarkdownText source={m.content} />
                        ) : (
                          <div class="bubble">{m.content}</div>
                        )
                      ) : null}
                      {m.tool_calls.map((c) => (
                        <ToolCard call={c} conversationId={d.id} onDecided={run} />
                      ))}
                      <div class="row wrap msg-actions">
                        {(m.role === 'user' || lastOfTurn) && x.versions > 1 && turn ? (
                          <VersionPicker
                            version={shownVersion}
                            versions={x.versions}
                            onPick={(v: number) => setPicked({ ...picked, [turn.exchange_id]: v })}
                          />
                        ) : null}
                        {m.role === 'user' && isLast ? (
                          <button type="button" class="link" onClick={() => setEditing(m.content)}>
                            Edit
                          </button>
                        ) : null}
                        {lastOfTurn && isLast ? (
                          <button
                            type="button"
                            class="link"
                            onClick={() => stream(`/conversations/${d.id}/regenerate`, {}, '')}
                          >
                            Regenerate
                          </button>
                        ) : null}
                      </div>
                      {lastOfTurn && turn && current ? (
                        <p class="muted turn-usage">
                          {num(turn.usage.input_tokens + turn.usage.output_tokens)} tokens (
                          {num(turn.usage.input_tokens)} in, {num(turn.usage.output_tokens)} out) ·{' '}
                          {turn.model}
                          {turn.status !== 'completed' ? (
                            <>
                              {' '}
                              ·{' '}
                              <span class={`pill ${turn.status === 'awaiting_approval' ? 'pending' : 'bad'}`}>
                                {turn.status.replace('_', ' ')}
                              </span>
                            </>
                          ) : null}
                          {turn.error ? (
                            <>
                              <br />
                              <small>{turn.error}</small>
                            </>
                          ) : null}
                        </p>
                      ) : null}
                    </li>
                  )
                })
              })}
              {live ? (
                <>
                  {live.user ? (
                    <li class="msg user" data-role="user">
                      <div class="bubble">{live.user}</div>
                    </li>
                  ) : null}
                  <li class="msg assistant" data-role="assistant" aria-live="polite">
                    {live.calls.map((c) => (
                      <ToolCard call={c} conversationId={d.id} onDecided={run} />
                    ))}
                    <div class="bubble">
                      {live.text || (
                        <>
                          <span class="spinner" aria-hidden="true"></span>Thinking…
                        </>
                      )}
                    </div>
                  </li>
                </>
              ) : null}
            </ol>
            <div ref={bottom}></div>
            <ErrorNote error={error} />
            <form class="composer" onSubmit={send}>
              <label class="sr" for="assistant-input">
                Message
              </label>
              <textarea
                id="assistant-input"
                rows={3}
                maxlength={32000}
                placeholder="Ask the assistant…"
                value={draft}
                onInput={(e: Event) => setDraft((e.target as HTMLTextAreaElement).value)}
                onKeyDown={(e: KeyboardEvent) => {
                  if (e.key === 'Enter' && !e.shiftKey) send(e)
                }}
              ></textarea>
              <div class="row wrap">
                {running ? (
                  <Action kind="danger" run={() => stop(live?.turnId ?? last?.id)}>
                    Stop
                  </Action>
                ) : (
                  <button
                    type="submit"
                    class="primary"
                    disabled={waiting}
                    aria-describedby={reason ? 'send-reason' : undefined}
                  >
                    Send
                  </button>
                )}
                {reason ? (
                  <span id="send-reason" class="muted send-reason">
                    {reason}
                  </span>
                ) : null}
              </div>
            </form>
          </div>
        )
      }}
    </Loaded>
  )
}

export function AssistantPage({ id }: { id?: string }): VNode {
  const session = useSession()
  const settings = useAssistantSettings()
  const [turns, setTurns] = useState(0)
  const usage = useUsage()
  const [quota, setQuota] = useState<TurnQuota | null>(null)
  const assistant = usage.data?.products.find((p) => p.product === 'assistant')
  const shown = quota ?? (assistant ? { used: assistant.used, limit: assistant.quota } : null)
  const start = async () => {
    const made = await createConversation()
    location.hash = `#/assistant/${made.id}`
  }
  return (
    <section class="assistant">
      <div class="row wrap assistant-head">
        <h1>Assistant</h1>
        <span class="muted">
          of <strong>{session.tenantName}</strong>
          {shown ? (
            <>
              {' '}
              · tokens this month:{' '}
              <strong class="quota">
                {num(shown.used)}
                {shown.limit !== null ? ` of ${num(shown.limit)}` : ''}
              </strong>
            </>
          ) : null}
        </span>
      </div>
      <Loaded state={settings}>
        {(s) => (
          <>
            <SettingsPanel settings={s} saved={settings.reload} />
            {s.effective.credential ? null : <NeedsModel settings={s} />}
          </>
        )}
      </Loaded>
      <div class={`assistant-layout${id ? ' has-chat' : ''}`}>
        <ConversationSidebar id={id} start={start} reloadKey={turns} />
        <div class="grow chat-pane">
          {id ? (
            <Chat key={id} id={id} quotaText={setQuota} onTurn={() => setTurns((n) => n + 1)} />
          ) : (
            <div class="chat-empty">
              <p>
                Ask the assistant to read and write your content and to act in your connected tools, under the
                tools' permissions.
              </p>
              <p class="muted">Start a conversation, or pick one.</p>
            </div>
          )}
        </div>
      </div>
    </section>
  )
}
