import { type ComponentChildren, cloneElement, createContext, isValidElement, type VNode } from 'preact'
import { useContext, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from './api.ts'
import { explain, fieldName, inDashboardWords } from './messages.ts'

/** What every page knows: the session's user, the active tenant and the caller's role. */
export interface Session {
  email: string
  userId: string
  tenantId: string
  tenantName: string
  role: 'owner' | 'admin' | 'member' | 'contributor'
  /** The workspace's IANA time zone (its settings' `timezone`, else the browser's). */
  timeZone: string
  /** After a change to the user's own memberships: a new token, and the tenants again. */
  refresh: () => Promise<void>
}
export const SessionContext = createContext<Session | null>(null)
export function useSession(): Session {
  const s = useContext(SessionContext)
  if (!s) throw new Error('no session')
  return s
}
export const canWrite = (s: Session) => s.role === 'owner' || s.role === 'admin'
/** Publishes, schedules and deletes any article, and manages sites and tags: everyone but a contributor. */
export const canPublish = (s: Session) => s.role !== 'contributor'

/**
 * An error as a person reads it (a screen reader too): what happened and what to do next, from the
 * one mapping of codes (messages.ts), with the API's message where it says more and the fields a
 * 400 names. The code stays out of sight, in data-code.
 */
export function ErrorNote({ error }: { error: unknown }): VNode | null {
  if (!error) return null
  const e =
    error instanceof ApiError ? error : new ApiError(0, 'CLIENT', String((error as Error)?.message ?? error))
  const { sentence, next, link } = explain(e)
  const said = e.code === 'VALIDATION_ERROR' && e.details.length ? '' : inDashboardWords(e.message)
  return (
    <div class="error" role="alert" data-code={e.code}>
      <strong>{sentence}</strong>
      {said && said !== sentence ? (
        <>
          {' '}
          {said}
          {/[.!?]$/.test(said) ? '' : '.'}
        </>
      ) : null}
      {e.details.length ? (
        <ul>
          {e.details.map((d) => (
            <li>
              <strong>{fieldName(d.field)}</strong>: {inDashboardWords(d.message)}
            </li>
          ))}
        </ul>
      ) : null}
      {next ? (
        <p class="next">
          {next}
          {link ? (
            <>
              {' '}
              <a href={link.href}>{link.label}</a>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}

export function Loading({ label = 'Loading' }: { label?: string }): VNode {
  return (
    <p class="muted" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true"></span>
      {label}…
    </p>
  )
}

/** Shows the data once loaded, progress meanwhile, and the error if loading failed. */
export function Loaded<T>({
  state,
  children,
}: {
  state: { data?: T; error?: unknown; loading: boolean }
  children: (data: T) => VNode | VNode[] | null
}): VNode | null {
  if (state.error) return <ErrorNote error={state.error} />
  if (state.data === undefined) return <Loading />
  return <>{children(state.data)}</>
}

// ---- Confirmation: one modal <dialog> for the app (focus is kept inside; Esc cancels).

let askConfirm: ((message: string, action: string) => Promise<boolean>) | undefined
export function confirmAction(message: string, action = 'Confirm'): Promise<boolean> {
  return askConfirm ? askConfirm(message, action) : Promise.resolve(window.confirm(message))
}
export function ConfirmHost(): VNode {
  const ref = useRef<HTMLDialogElement>(null)
  const [state, setState] = useState<{ message: string; action: string; resolve: (ok: boolean) => void }>()
  useEffect(() => {
    askConfirm = (message, action) =>
      new Promise((resolve) => {
        setState({ message, action, resolve })
      })
    return () => {
      askConfirm = undefined
    }
  }, [])
  useEffect(() => {
    if (state && !ref.current?.open) ref.current?.showModal()
  }, [state])
  const close = (ok: boolean) => {
    ref.current?.close()
    state?.resolve(ok)
    setState(undefined)
  }
  return (
    <dialog
      ref={ref}
      class="confirm"
      aria-labelledby="confirm-text"
      onCancel={(e: Event) => {
        e.preventDefault()
        close(false)
      }}
    >
      <p id="confirm-text">{state?.message}</p>
      <div class="row end">
        <button type="button" onClick={() => close(false)} autofocus>
          Cancel
        </button>
        <button type="button" class="danger" onClick={() => close(true)}>
          {state?.action}
        </button>
      </div>
    </dialog>
  )
}

/**
 * A button for a slow or destructive action: asks for confirmation when told to, shows
 * progress while the call runs, and shows the API's error beside it.
 */
export function Action({
  run,
  children,
  confirm,
  confirmLabel,
  kind,
  disabled,
  label,
}: {
  run: () => Promise<unknown>
  children: unknown
  confirm?: string
  confirmLabel?: string
  kind?: 'danger' | 'primary' | 'link'
  disabled?: boolean
  label?: string
}): VNode {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const mounted = useRef(true)
  useEffect(
    () => () => {
      mounted.current = false
    },
    [],
  )
  const click = async () => {
    if (confirm && !(await confirmAction(confirm, confirmLabel))) return
    setBusy(true)
    setError(undefined)
    try {
      await run()
    } catch (e) {
      if (mounted.current) setError(e)
    } finally {
      if (mounted.current) setBusy(false)
    }
  }
  return (
    <span class="action">
      <button
        type="button"
        class={kind ?? ''}
        onClick={click}
        disabled={busy || disabled}
        aria-busy={busy}
        aria-label={label}
      >
        {busy ? <span class="spinner" aria-hidden="true"></span> : null}
        {children}
      </button>
      <ErrorNote error={error} />
    </span>
  )
}

/** Loads a list again (a delivery log), with progress. */
export function Refresh({ state }: { state: { reload: () => void; loading: boolean } }): VNode {
  return (
    <button type="button" onClick={state.reload} aria-busy={state.loading}>
      {state.loading ? <span class="spinner" aria-hidden="true"></span> : null}Refresh
    </button>
  )
}

/** A form whose submit shows progress and the API's error; fields are read from the form. */
export function Form({
  submit,
  children,
  label,
  submitLabel,
  class: className,
}: {
  submit: (data: FormData, form: HTMLFormElement) => Promise<unknown>
  children: unknown
  label: string
  submitLabel: string
  class?: string
}): VNode {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const onSubmit = async (e: Event) => {
    e.preventDefault()
    const form = e.currentTarget as HTMLFormElement
    setBusy(true)
    setError(undefined)
    try {
      await submit(new FormData(form), form)
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class={`card form ${className ?? ''}`} onSubmit={onSubmit} aria-label={label}>
      <fieldset disabled={busy}>
        <FormErrorContext.Provider value={error}>{children as ComponentChildren}</FormErrorContext.Provider>
        <div class="row">
          <button type="submit" class="primary" aria-busy={busy}>
            {busy ? <span class="spinner" aria-hidden="true"></span> : null}
            {submitLabel}
          </button>
        </div>
      </fieldset>
      <ErrorNote error={error} />
    </form>
  )
}

/** Shown to members in place of forms the API would refuse them. */
export function ReadOnly({ what }: { what: string }): VNode {
  return (
    <p class="note" role="note">
      Read-only: as a <strong>member</strong> you can view {what}; owners and admins can change them.
    </p>
  )
}

/** A new secret with copy; `notice` says whether it can be seen again (a key cannot, a webhook secret can). */
export function SecretOnce({
  value,
  title,
  notice,
  onDone,
}: {
  value: string
  title: string
  notice: string
  onDone: () => void
}): VNode {
  const [copied, setCopied] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
    } catch {
      input.current?.select()
      document.execCommand('copy')
    }
    setCopied(true)
  }
  return (
    <section class="card secret" aria-label={title}>
      <h3>{title}</h3>
      <p>{notice}</p>
      <div class="row">
        <input
          ref={input}
          class="mono grow"
          readonly
          value={value}
          aria-label="The new secret"
          onFocus={(e: Event) => (e.target as HTMLInputElement).select()}
        />
        <button type="button" class="primary" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  )
}

/** A horizontal bar: value against max, with its label. */
export function Bar({
  value,
  max,
  label,
  text,
  tone,
}: {
  value: number
  max: number
  label: string
  text: string
  tone?: 'ok' | 'warn' | 'bad' | 'a' | 'b' | 'c'
}): VNode {
  const pct = max > 0 ? Math.min(100, (value / max) * 100) : 0
  return (
    <div class="bar-row">
      <span class="bar-label">{label}</span>
      <span
        class="bar"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={value}
      >
        <span class={`fill ${tone ?? ''}`} style={`width:${pct}%`}></span>
      </span>
      <span class="bar-text">{text}</span>
    </div>
  )
}

/**
 * A labelled control. The control also gets the label as its accessible name: a <select> inside
 * a <label> would otherwise be announced with its options' text.
 */
/**
 * The message a refusal gives for one field (the error body's details name it: `slug`, `name`,
 * `settings.time_zone`), to show beside that field; undefined when it names another or none.
 */
export function fieldError(error: unknown, field: string | undefined): string | undefined {
  if (!field || !(error instanceof ApiError)) return undefined
  const d = error.details.find((x) => x.field === field || x.field.startsWith(`${field}.`))
  return d ? inDashboardWords(d.message) : undefined
}

/**
 * A refusal's message beside its field: highlighted, and read out with the field (aria-describedby).
 * Not an alert itself: the form's note under it is the one alert, so a screen reader announces the
 * refusal once.
 */
export function FieldError({ id, message }: { id: string; message: string | undefined }): VNode | null {
  return message ? (
    <small class="field-error" id={id}>
      {message}
    </small>
  ) : null
}

/** The refusal of the enclosing Form, for its Fields to show beside themselves. */
const FormErrorContext = createContext<unknown>(undefined)
let fieldIds = 0

export function Field({ label, children, hint }: { label: string; children: unknown; hint?: string }): VNode {
  const formError = useContext(FormErrorContext)
  const [id] = useState(() => `field-${++fieldIds}`)
  const name = isValidElement(children) ? (children.props as { name?: string }).name : undefined
  const message = fieldError(formError, name)
  const control = isValidElement(children)
    ? cloneElement(children, {
        'aria-label': label,
        ...(message && { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` }),
      })
    : children
  return (
    <label class={message ? 'field invalid' : 'field'}>
      <span>{label}</span>
      {control}
      <FieldError id={`${id}-error`} message={message} />
      {hint ? <small>{hint}</small> : null}
    </label>
  )
}

// ---- Leaving with unsaved work: the browser's own prompt on unload, and the app's dialog on a
// move inside the app (hash routes). Registered when this module loads, before any page's
// hashchange listener, so a refused move never reaches the router.

let unsaved: string | null = null
let lastUrl = location.href
let leaving = false

window.addEventListener('hashchange', (e) => {
  if (unsaved === null || leaving) {
    leaving = false
    lastUrl = location.href
    return
  }
  e.stopImmediatePropagation()
  const target = location.href
  history.replaceState(history.state, '', lastUrl)
  confirmAction(unsaved, 'Leave without saving').then((ok) => {
    if (!ok) return
    leaving = true
    location.href = target
  })
})

window.addEventListener('beforeunload', (e) => {
  if (unsaved === null) return
  e.preventDefault()
  // Older browsers show the prompt only when returnValue is set.
  e.returnValue = ''
})

/** While `message` is set, leaving the page or moving elsewhere in the app asks first. */
export function useLeaveGuard(message: string | null): void {
  useEffect(() => {
    unsaved = message
    return () => {
      unsaved = null
    }
  }, [message])
}

/** Moves elsewhere in the app without asking: after the work was deleted, not left behind. */
export function leaveWithoutAsking(hash: string): void {
  leaving = location.hash !== hash
  location.hash = hash
}
