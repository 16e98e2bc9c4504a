import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { needsRealConcurrency } from './support/concurrency.ts'
import { startTestPlatform, type TestPlatform } from './support/platform.ts'

/** A stand-in for an HTTP e-mail API (Resend-style JSON), on loopback. */
let status = 200
/** Requests for this recipient wait for `releaseHeld` and then answer `heldStatus`. */
let holdRecipient: string | undefined
let heldStatus = 500
let releaseHeld: (() => void) | undefined
let heldArrived: (() => void) | undefined
const received: { auth: string | undefined; body: { to: string[]; subject: string; text: string } }[] = []
let emailApi: Server
let tp: TestPlatform
let mailbox: TestPlatform

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (d) => (text += d))
    req.on('end', () => resolve(text))
  })

beforeAll(async () => {
  emailApi = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req))
    if (holdRecipient && body.to[0] === holdRecipient) {
      holdRecipient = undefined
      await new Promise<void>((resolve) => {
        releaseHeld = resolve
        heldArrived?.()
      })
      res.writeHead(heldStatus, { 'content-type': 'application/json' }).end('{}')
      return
    }
    if (status === 200) received.push({ auth: req.headers.authorization, body })
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}')
  })
  await new Promise<void>((r) => emailApi.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(emailApi.address() as AddressInfo).port}/emails`
  tp = await startTestPlatform({ instances: 2, env: { EMAIL_API_URL: url, EMAIL_API_KEY: 're_test_key' } })
  mailbox = await startTestPlatform()
})
afterAll(async () => {
  await tp.close()
  await mailbox.close()
  emailApi.close()
})

const sendJob = (p: TestPlatform, instance = 0) =>
  p.instances[instance]!.platform.runJob('tenants/jobs/send-notifications').then((r) => r.json())

describe('notifier', () => {
  it('sends each queued e-mail once through the e-mail API, even with two senders racing', async (ctx) => {
    needsRealConcurrency(ctx)
    const { notifier } = tp.instances[0]!.platform.deps
    for (let i = 0; i < 20; i++) {
      expect(
        await notifier.enqueue(tp.db.sql, {
          kind: 'test',
          recipient: `r${i}@example.com`,
          subject: `s${i}`,
          body: 'b',
        }),
      ).toBe(true)
    }
    await Promise.all([sendJob(tp, 0), sendJob(tp, 1), sendJob(tp, 0)])
    expect(received.map((r) => r.body.to[0]).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `r${i}@example.com`).sort(),
    )
    expect(received[0]!.auth).toBe('Bearer re_test_key')
    const [row] = await tp.db.sql`select count(*)::int as n from public.notifications where status = 'sent'`
    expect(row!.n).toBe(20)
  })

  it('queues a notification with a dedupe key only once', async (ctx) => {
    needsRealConcurrency(ctx)
    const { notifier } = tp.instances[0]!.platform.deps
    const input = {
      kind: 'test',
      recipient: 'once@example.com',
      subject: 's',
      body: 'b',
      dedupeKey: 'once:1',
    }
    const results = await Promise.all([
      notifier.enqueue(tp.db.sql, input),
      notifier.enqueue(tp.db.sql, input),
    ])
    expect(results.sort()).toEqual([false, true])
  })

  it('retries a failing e-mail API with backoff and gives up after 5 attempts', async () => {
    status = 500
    const { notifier } = tp.instances[0]!.platform.deps
    await notifier.enqueue(tp.db.sql, {
      kind: 'test',
      recipient: 'fail@example.com',
      subject: 's',
      body: 'b',
    })
    for (let attempt = 1; attempt <= 5; attempt++) {
      await sendJob(tp)
      const [n] = await tp.db
        .sql`select status, attempts, last_error from public.notifications where recipient = 'fail@example.com'`
      expect(n!.attempts).toBe(attempt)
      expect(n!.last_error).toContain('500')
      expect(n!.status).toBe(attempt < 5 ? 'pending' : 'failed')
      // Skip the backoff for the test.
      await tp.db
        .sql`update public.notifications set locked_until = null where recipient = 'fail@example.com'`
    }
    status = 200
  })

  it("a sender whose lease ran out cannot overwrite the newer sender's outcome (fenced by the lease)", async () => {
    const { notifier } = tp.instances[0]!.platform.deps
    const recipient = 'fenced@example.com'
    await notifier.enqueue(tp.db.sql, { kind: 'test', recipient, subject: 's', body: 'b' })
    // Sender A claims it; the e-mail API holds its request, then fails it.
    holdRecipient = recipient
    heldStatus = 500
    const arrived = new Promise<void>((resolve) => {
      heldArrived = resolve
    })
    const senderA = sendJob(tp, 0)
    await arrived
    // A's lease runs out while its request hangs; sender B claims the notification and sends it.
    await tp.db
      .sql`update public.notifications set locked_until = now() - interval '1 second' where recipient = ${recipient}`
    expect(await sendJob(tp, 1)).toMatchObject({ sent: 1 })
    // A's late failure must not turn the sent notification back into a pending one (sent twice).
    releaseHeld!()
    await senderA
    const [n] = await tp.db
      .sql`select status, attempts, last_error, lease_id, locked_until from public.notifications where recipient = ${recipient}`
    expect(n).toMatchObject({
      status: 'sent',
      attempts: 2,
      last_error: null,
      lease_id: null,
      locked_until: null,
    })
  })

  it('keeps mail in the dev mailbox when no e-mail API is configured', async () => {
    const { notifier } = mailbox.instances[0]!.platform.deps
    await notifier.enqueue(mailbox.db.sql, {
      kind: 'test',
      recipient: 'dev@example.com',
      subject: 'Hello',
      body: 'b',
    })
    await sendJob(mailbox)
    const res = await mailbox.json('/_dev/mailbox?to=dev@example.com')
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0]).toMatchObject({ subject: 'Hello', status: 'sent' })
  })
})
