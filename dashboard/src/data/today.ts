/**
 * Home's "Needs you today": per role, what waits for the signed-in member, each a count read from
 * the API and a link to where it is done. A read the role may not make (or that fails) leaves its
 * line out: Home is a summary, and each page says for itself what went wrong.
 */

import { call, platform } from '../api.ts'
import type { Session } from '../ui.tsx'
import { listApprovals } from './approvals.ts'
import { type ContentQuery, listContent } from './content.ts'

export interface Need {
  id: string
  /** What waits, as a noun phrase ("drafts waiting for review"). */
  label: string
  /** The phrase for exactly one ("draft waiting for review"). */
  one: string
  count: number
  /** More than one page's worth: the count is a floor. */
  more: boolean
  href: string
  /** 'bad' for what is broken (failed deliveries), 'warn' for what runs out (quota). */
  tone?: 'warn' | 'bad'
}

const PAGE = 100

async function articles(query: Omit<ContentQuery, 'type' | 'limit'>): Promise<[number, boolean]> {
  const page = await listContent({ type: 'article', limit: PAGE, ...query })
  return [page.data.length, Boolean(page.next_cursor)]
}

type Read = () => Promise<Omit<Need, 'id'>>

const editorReads = (): Record<string, Read> => ({
  review: async () => {
    const [count, more] = await articles({ review: 'requested' })
    return {
      label: 'drafts waiting for review',
      one: 'draft waiting for review',
      href: '#/review',
      count,
      more,
    }
  },
  scheduled: async () => {
    const [count, more] = await articles({ status: 'scheduled' })
    return {
      label: 'articles scheduled to go out',
      one: 'article scheduled to go out',
      href: '#/scheduled',
      count,
      more,
    }
  },
})

const adminReads = (): Record<string, Read> => ({
  approvals: async () => {
    const page = await listApprovals('pending', PAGE)
    return {
      label: 'assistant actions waiting for approval',
      one: 'assistant action waiting for approval',
      href: '#/approvals',
      count: page.data.length,
      more: page.data.length >= PAGE,
    }
  },
  deliveries: async () => {
    const page = await call(platform.GET('/api/webhooks', { params: { query: { limit: PAGE } } }))
    const failing = page.data.filter((w) => w.status === 'paused' && w.paused_reason === 'failures')
    return {
      label: 'webhooks paused after failed deliveries',
      one: 'webhook paused after failed deliveries',
      href: '#/webhooks',
      count: failing.length,
      more: false,
      tone: 'bad',
    }
  },
  quota: async () => {
    const usage = await call(platform.GET('/api/usage', {}))
    const near = usage.products.filter((p) => p.percent !== null && p.percent >= 80)
    return {
      label: 'quotas at 80% or more this month',
      one: 'quota at 80% or more this month',
      href: '#/usage',
      count: near.length,
      more: false,
      tone: 'warn',
    }
  },
})

const writerReads = (userId: string): Record<string, Read> => ({
  drafts: async () => {
    const [count, more] = await articles({ status: 'draft', author: userId })
    return {
      label: 'of your drafts in progress',
      one: 'of your drafts in progress',
      href: '#/drafts',
      count,
      more,
    }
  },
  submitted: async () => {
    const [count, more] = await articles({ review: 'requested', author: userId })
    return {
      label: 'of your drafts with the editors',
      one: 'of your drafts with the editors',
      href: '#/drafts',
      count,
      more,
    }
  },
})

/** What needs this member today, in the order Home lists it. */
export async function readNeeds(session: Pick<Session, 'role' | 'userId'>): Promise<Need[]> {
  const reads =
    session.role === 'contributor'
      ? writerReads(session.userId)
      : session.role === 'member'
        ? editorReads()
        : { ...editorReads(), ...adminReads() }
  const entries = Object.entries(reads)
  const results = await Promise.allSettled(entries.map(([, read]) => read()))
  return entries.flatMap(([id], i) => {
    const r = results[i]!
    return r.status === 'fulfilled' ? [{ id, ...r.value }] : []
  })
}
