/** The Publishing panel: publish at a time in the workspace's time zone, and take down at another. */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { ApiError } from '../../api.ts'
import type { Article } from '../../data/content.ts'
import { Action } from '../../ui.tsx'
import { fromZoned, toZoned, whenIn } from '../../zone.ts'

export function Schedule({
  article: a,
  zone,
  schedule,
  cancel,
  setUnpublish,
}: {
  article: Article
  zone: string
  schedule: (iso: string, unpublishAt?: string) => Promise<void>
  cancel: () => Promise<void>
  setUnpublish: (iso: string | null) => Promise<void>
}): VNode {
  const suggested = () => {
    // The next full hour at least an hour away: a time in the past is refused.
    const d = new Date(Date.now() + 2 * 3_600_000)
    d.setMinutes(0, 0, 0)
    return toZoned(d, zone)
  }
  const [local, setLocal] = useState(() => (a.publish_at ? toZoned(a.publish_at, zone) : suggested()))
  const at = fromZoned(local, zone)
  // Optional: when the article comes down again (unpublish_at); empty for never.
  const [untilLocal, setUntilLocal] = useState(() => (a.unpublish_at ? toZoned(a.unpublish_at, zone) : ''))
  const until = untilLocal ? fromZoned(untilLocal, zone) : null
  const untilField = (
    <label class="field">
      <span>Take down at ({zone}, optional)</span>
      <input
        type="datetime-local"
        aria-label="Take down at"
        value={untilLocal}
        min={toZoned(new Date(), zone)}
        onInput={(e: Event) => setUntilLocal((e.target as HTMLInputElement).value)}
      />
      <small>Back to draft within a minute of that time; empty: stays up.</small>
    </label>
  )
  if (a.status === 'published')
    return (
      <section class="card" aria-label="Publishing">
        <h2>Publishing</h2>
        <p class="muted">
          Published {a.published_at ? whenIn(a.published_at, zone) : ''} ({zone}). To schedule it again,
          unpublish it first.
        </p>
        {untilField}
        <div class="row wrap">
          <Action run={() => setUnpublish(until ? until.toISOString() : null)}>Save the end time</Action>
        </div>
      </section>
    )
  return (
    <section class="card" aria-label="Publishing">
      <h2>Publishing</h2>
      <label class="field">
        <span>Publish at ({zone})</span>
        <input
          type="datetime-local"
          aria-label="Publish at"
          value={local}
          min={toZoned(new Date(), zone)}
          onInput={(e: Event) => setLocal((e.target as HTMLInputElement).value)}
        />
        <small>
          In the workspace's time zone
          {at ? (
            <>
              , that is{' '}
              <span data-iso={at.toISOString().replace('.000Z', 'Z')}>
                {at.toISOString().slice(0, 16).replace('T', ' ')} UTC
              </span>
            </>
          ) : (
            ''
          )}
          . It goes live within a minute of that time.
        </small>
      </label>
      {untilField}
      <div class="row wrap">
        <Action
          kind={a.status === 'draft' ? undefined : 'primary'}
          run={async () => {
            if (!at)
              throw new ApiError(400, 'VALIDATION_ERROR', 'Choose a date and time', [
                { field: 'publish_at', message: 'choose a date and time' },
              ])
            await schedule(at.toISOString(), until?.toISOString())
          }}
        >
          {a.status === 'scheduled' ? 'Reschedule' : 'Schedule'}
        </Action>
        {a.status === 'scheduled' ? <Action run={cancel}>Cancel the schedule</Action> : null}
      </div>
    </section>
  )
}
