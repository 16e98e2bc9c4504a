import { describe, expect, it } from 'vitest'
import { ServiceError } from '../shared/infra/errors.ts'
import type { MessageRow, ToolCallRow, TurnRow } from '../shared/services/assistant/records.ts'
import { guarded } from '../shared/services/assistant/turn/events.ts'
import { HISTORY_MESSAGES, MAX_TOOL_RESULT_CHARS } from '../shared/services/assistant/turn/limits.ts'
import { allInOrder } from '../shared/services/assistant/turn/settled.ts'
import {
  boundResult,
  historyFrom,
  inputTokenBound,
  modelTools,
  SYSTEM_PROMPT,
  shapeTurnResult,
  systemPrompt,
  TOOL_TIME_LIMIT,
  toolByName,
  toolErrorText,
  toolOutcomeText,
} from '../shared/services/assistant/turn/shaping.ts'
import type { ToolEntry } from '../shared/services/tools/tool-set.ts'

// The parts of a turn that are computed from stored rows alone: no database, no HTTP.

const at = new Date('2026-11-27T10:00:00Z')
const message = (id: string, role: MessageRow['role'], content: string): MessageRow => ({
  id,
  conversation_id: 'c1',
  turn_id: 't1',
  role,
  content,
  created_at: at,
})
const call = (over: Partial<ToolCallRow> & Pick<ToolCallRow, 'id' | 'message_id'>): ToolCallRow => ({
  conversation_id: 'c1',
  turn_id: 't1',
  position: 0,
  provider_call_id: `p-${over.id}`,
  name: 'sites_list',
  tool: 'sites.list',
  arguments: {},
  status: 'ok',
  result: '[]',
  decided_by: null,
  created_at: at,
  finished_at: at,
  ...over,
})
const tool = (over: Partial<ToolEntry> & Pick<ToolEntry, 'name' | 'mcpName'>): ToolEntry => ({
  description: '',
  inputSchema: { properties: {} },
  source: 'platform',
  ...over,
})

describe('the history the model is shown', () => {
  it('pairs each assistant message with its calls in position order, then their results', () => {
    const history = historyFrom(
      [message('m1', 'user', 'List my sites'), message('m2', 'assistant', 'Looking')],
      [
        call({ id: 'b', message_id: 'm2', position: 1, status: 'refused', result: 'no' }),
        call({ id: 'a', message_id: 'm2', position: 0 }),
        call({ id: 'w', message_id: 'm2', position: 2, status: 'awaiting_approval', result: null }),
      ],
    )
    expect(history).toEqual([
      { role: 'user', content: 'List my sites' },
      {
        role: 'assistant',
        content: 'Looking',
        toolCalls: [
          { id: 'p-a', name: 'sites_list', arguments: {} },
          { id: 'p-b', name: 'sites_list', arguments: {} },
          { id: 'p-w', name: 'sites_list', arguments: {} },
        ],
      },
      {
        role: 'tool',
        results: [
          { id: 'p-a', content: '[]', isError: false },
          { id: 'p-b', content: 'no', isError: true },
          { id: 'p-w', content: 'Not run (awaiting_approval)', isError: true },
        ],
      },
    ])
  })

  it('sends an assistant message without calls as text only, with no tool results', () => {
    const history = historyFrom([message('m1', 'user', 'Hi'), message('m2', 'assistant', 'Hello')], [])
    expect(history).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello', toolCalls: [] },
    ])
  })

  it('keeps the newest messages and never opens with an assistant message', () => {
    const messages: MessageRow[] = []
    for (let i = 0; i < HISTORY_MESSAGES + 1; i++)
      messages.push(message(`m${i}`, i % 2 === 0 ? 'user' : 'assistant', `#${i}`))
    const history = historyFrom(messages, [])
    // The window starts at #1, an assistant message: it is dropped, so the history starts at #2.
    expect(history[0]).toEqual({ role: 'user', content: '#2' })
    expect(history).toHaveLength(HISTORY_MESSAGES - 1)
    expect(history.at(-1)).toEqual({ role: 'user', content: `#${HISTORY_MESSAGES}` })
  })
})

describe('tool results as the model sees them', () => {
  it('passes text through, JSON-encodes the rest, and cuts at the limit saying so', () => {
    expect(boundResult('plain')).toBe('plain')
    expect(boundResult({ a: 1 })).toBe('{"a":1}')
    expect(boundResult(undefined)).toBe('null')
    const long = 'x'.repeat(MAX_TOOL_RESULT_CHARS + 5)
    const cut = boundResult(long)
    expect(cut.startsWith('x'.repeat(MAX_TOOL_RESULT_CHARS))).toBe(true)
    expect(cut).toContain(`[truncated: the result had ${MAX_TOOL_RESULT_CHARS + 5} characters]`)
  })

  it('names each outcome for the model', () => {
    expect(toolOutcomeText({ status: 'ok', result: { id: 1 } })).toEqual({ status: 'ok', result: '{"id":1}' })
    expect(toolOutcomeText({ status: 'refused', message: 'needs approval' })).toEqual({
      status: 'refused',
      result: "Refused by the tenant's tool permissions: needs approval",
    })
    expect(toolOutcomeText({ status: 'invalid', message: 'channel missing', details: [] })).toEqual({
      status: 'invalid',
      result: 'Invalid arguments: channel missing',
    })
    expect(toolOutcomeText({ status: 'failed', message: 'upstream 500' })).toEqual({
      status: 'failed',
      result: 'The tool failed: upstream 500',
    })
  })

  it('tells a time-out and a service error apart from an internal error, which alone is logged', () => {
    expect(toolErrorText(new Error(TOOL_TIME_LIMIT), 5000)).toEqual({
      status: 'failed',
      result: 'The tool did not answer within 5000 ms',
      unexpected: false,
    })
    expect(toolErrorText(new ServiceError('CONFLICT', 'busy'), 5000)).toEqual({
      status: 'failed',
      result: 'The tool failed: busy',
      unexpected: false,
    })
    expect(toolErrorText(new TypeError('secret detail'), 5000)).toEqual({
      status: 'failed',
      result: 'The tool failed with an internal error',
      unexpected: true,
    })
  })
})

describe('the model call', () => {
  it("adds the tenant's instructions after the system prompt", () => {
    expect(systemPrompt(null)).toBe(SYSTEM_PROMPT)
    expect(systemPrompt('Answer in French')).toBe(
      `${SYSTEM_PROMPT}\n\nThe tenant's instructions:\nAnswer in French`,
    )
  })

  it('offers tools by alias, never hidden ones, and finds a call by alias first', () => {
    const tools = [
      tool({ name: 'sites.list', mcpName: 'sites_list', description: 'Lists sites' }),
      tool({ name: 'slack:post', mcpName: 'slack__post', hidden: 'disabled' }),
      tool({ name: 'sites_list', mcpName: 'other' }),
    ]
    expect(modelTools(tools)).toEqual([
      { name: 'sites_list', description: 'Lists sites', inputSchema: { type: 'object', properties: {} } },
      { name: 'other', description: 'sites_list', inputSchema: { type: 'object', properties: {} } },
    ])
    expect(toolByName(tools, 'sites_list')?.name).toBe('sites.list')
    expect(toolByName(tools, 'slack:post')?.mcpName).toBe('slack__post')
    expect(toolByName(tools, 'nope')).toBeUndefined()
  })

  it('bounds the input tokens by a third of the request bytes', () => {
    const request = { system: 'é'.repeat(30), history: [], tools: [] }
    const bytes = new TextEncoder().encode(JSON.stringify(request)).length
    expect(inputTokenBound(request)).toBe(Math.ceil(bytes / 3))
  })
})

describe('the turn result', () => {
  const turn: TurnRow = {
    id: 't1',
    tenant_id: 'x',
    conversation_id: 'c1',
    status: 'completed',
    triggered_by: 'assistant',
    provider: 'openai',
    model: 'gpt-test',
    credential_environment: 'production',
    scopes: [],
    job_id: 'j1',
    steps: 2,
    input_tokens: '120',
    output_tokens: '30',
    error: null,
    created_by: 'u1',
    created_at: at,
    updated_at: at,
    finished_at: at,
    cancel_requested_at: null,
    exchange_id: 't1',
    version: 1,
    user_message_id: null,
    superseded_at: null,
  }

  it('is the last assistant message with its calls, every call of the turn, and the usage', () => {
    const calls = [call({ id: 'a', message_id: 'm1' }), call({ id: 'b', message_id: 'm2' })]
    const result = shapeTurnResult(
      turn,
      [message('m1', 'assistant', 'first'), message('m2', 'assistant', 'second')],
      calls,
      { used: 150, limit: null },
    )
    expect(result.message?.content).toBe('second')
    expect(result.message?.tool_calls.map((c) => c.id)).toEqual(['b'])
    expect(result.tool_calls.map((c) => c.id)).toEqual(['a', 'b'])
    expect(result.usage).toEqual({ input_tokens: 120, output_tokens: 30 })
    expect(result.turn.finished_at).toBe(at.toISOString())
    expect(result.quota).toEqual({ used: 150, limit: null })
  })

  it('has no message when the model never answered', () => {
    expect(shapeTurnResult(turn, [], [], { used: 0, limit: 10 }).message).toBeNull()
  })
})

describe('independent work awaited at once', () => {
  it('returns the values in order', async () => {
    const [a, b] = await allInOrder([Promise.resolve(1), Promise.resolve('two')])
    expect([a, b]).toEqual([1, 'two'])
  })

  it('reports the first failure in list order, not in time, after everything settled', async () => {
    let lateSettled = false
    const early = Promise.reject(new Error('second, but first in time'))
    const late = new Promise<never>((_, reject) =>
      setTimeout(() => {
        lateSettled = true
        reject(new Error('first in the list'))
      }, 20),
    )
    await expect(allInOrder([late, early])).rejects.toThrow('first in the list')
    expect(lateSettled).toBe(true)
  })
})

describe('a turn event sink', () => {
  it('never lets a failing sink stop the turn', () => {
    const seen: string[] = []
    const emit = guarded({
      emit(e) {
        seen.push(e.event)
        throw new Error('client went away')
      },
    })
    expect(() => emit('text.delta', { text: 'x' })).not.toThrow()
    expect(seen).toEqual(['text.delta'])
  })
})
