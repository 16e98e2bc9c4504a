/**
 * The dev mailbox as a page for people: each e-mail the notifier "sent" with its links
 * clickable. /_dev/mailbox answers this to a browser (Accept: text/html) and JSON otherwise, or
 * always with ?format=json.
 */

export interface MailboxRow {
  id: string
  kind: string
  recipient: string
  subject: string
  body: string
  status: string
  created_at: Date | string
}

/** The mailbox answers HTML to a browser's navigation, JSON to scripts and tests. */
export function wantsMailboxPage(accept: string | undefined, format: string | undefined): boolean {
  if (format === 'json') return false
  if (format === 'html') return true
  return /\btext\/html\b/.test(accept ?? '')
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** Escapes the text, then makes each http(s) URL in it a link (the URL's own characters only). */
export function linkify(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) => {
      if (i % 2 === 0) return escapeHtml(part)
      // A sentence's full stop or closing bracket after a link is not part of it.
      const [, url = part, tail = ''] = part.match(/^(.*?)([.,;:!?)\]]*)$/) ?? []
      return `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>${escapeHtml(tail)}`
    })
    .join('')
}

export function renderMailbox(rows: MailboxRow[], to: string | undefined): string {
  const mails = rows
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.recipient)}</strong> · ${escapeHtml(new Date(m.created_at).toISOString())} · ${escapeHtml(m.kind)} · ${escapeHtml(m.status)}</p>
  <pre>${linkify(m.body)}</pre>
</article>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox</title>
<link rel="icon" href="data:,">
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 860px; padding: 1rem; color: #1b1f24; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.05rem; margin: 0 0 .25rem; }
  article { border: 1px solid #d0d7de; border-radius: 8px; padding: .75rem 1rem; margin: .75rem 0; }
  .meta { color: #57606a; margin: 0 0 .5rem; font-size: .875rem; }
  pre { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0; }
  a { color: #0969da; } form { display: flex; gap: .5rem; flex-wrap: wrap; }
  input { font: inherit; padding: .3rem .5rem; min-width: 16rem; }
</style></head>
<body><h1>Dev mailbox</h1>
<p class="meta">E-mails the platform would have sent, newest first (at most 100). No e-mail API is configured, so nothing left this machine.
The same list as JSON: <a href="?format=json${to ? `&amp;to=${encodeURIComponent(to)}` : ''}">?format=json</a>.</p>
<form method="get"><input type="email" name="to" placeholder="Only e-mails to…" value="${escapeHtml(to ?? '')}" aria-label="Recipient">
<button type="submit">Filter</button>${to ? ' <a href="?">All</a>' : ''}</form>
${mails || '<p>No e-mails yet.</p>'}
</body></html>`
}
