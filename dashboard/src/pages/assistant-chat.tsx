import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'

/**
 * The chat's pieces: answers rendered as Markdown by the content renderer (the one that makes
 * article HTML, sanitizing included), loaded on first use as its own chunk; tool-call arguments
 * and results as readable fields, long ones folded, raw JSON only on request; the versions of an
 * exchange ("2 / 3").
 */

type Render = (source: string) => string
let renderer: Promise<Render> | null = null
const loadRenderer = () => {
  renderer ??= import('@shared/services/content/render.ts').then((m) => m.renderHtml)
  return renderer
}

/** Markdown as sanitized HTML; plain text until the renderer has loaded. */
export function MarkdownText({ source }: { source: string }): VNode {
  const [render, setRender] = useState<Render | null>(null)
  useEffect(() => {
    let live = true
    void loadRenderer().then((r) => live && setRender(() => r))
    return () => {
      live = false
    }
  }, [])
  if (!render) return <div class="bubble markdown">{source}</div>
  // renderHtml's output is sanitized (no script, no event handlers, http(s) links only).
  return <div class="bubble markdown" dangerouslySetInnerHTML={{ __html: render(source) }}></div>
}

const FOLD_CHARS = 400

/** A value as text a person reads: strings as they are, the rest as indented JSON. */
const readable = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2))

/** The tool's arguments as name: value rows, long values folded. */
export function ToolArguments({ args }: { args: Record<string, unknown> }): VNode {
  const entries = Object.entries(args)
  if (entries.length === 0) return <p class="muted">No arguments.</p>
  return (
    <dl class="tool-args">
      {entries.map(([k, v]) => (
        <>
          <dt>{k}</dt>
          <dd>
            <Folded text={readable(v)} />
          </dd>
        </>
      ))}
    </dl>
  )
}

/** A result: JSON results formatted; long ones folded; the raw text on request. */
export function ToolResult({ result, label }: { result: string; label: string }): VNode {
  let parsed: unknown = result
  try {
    parsed = JSON.parse(result)
  } catch {}
  const text = readable(parsed)
  return (
    <div class="tool-result">
      <strong>{label}</strong>
      <Folded text={text} />
      {typeof parsed === 'string' ? null : (
        <details class="raw">
          <summary>Raw JSON</summary>
          <pre class="mono">{result.slice(0, 16_000)}</pre>
        </details>
      )}
    </div>
  )
}

function Folded({ text }: { text: string }): VNode {
  if (text.length <= FOLD_CHARS && text.split('\n').length <= 12) return <pre class="mono wrap">{text}</pre>
  return (
    <details class="folded">
      <summary>
        <pre class="mono wrap">{text.slice(0, 200)}…</pre>
        <span class="muted">Show all ({text.length.toLocaleString()} characters)</span>
      </summary>
      <pre class="mono wrap">{text.slice(0, 16_000)}</pre>
    </details>
  )
}

/** "‹ 2 / 3 ›": which version of an exchange is shown. */
export function VersionPicker({
  version,
  versions,
  onPick,
}: {
  version: number
  versions: number
  onPick: (v: number) => void
}): VNode {
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: as the htm template had it; its buttons carry their own names
    <span class="versions" aria-label="Versions">
      <button
        type="button"
        class="link"
        aria-label="Previous version"
        disabled={version <= 1}
        onClick={() => onPick(version - 1)}
      >
        ‹
      </button>
      <span class="version-count">
        {version} / {versions}
      </span>
      <button
        type="button"
        class="link"
        aria-label="Next version"
        disabled={version >= versions}
        onClick={() => onPick(version + 1)}
      >
        ›
      </button>
    </span>
  )
}
