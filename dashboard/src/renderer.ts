import { useEffect, useState } from 'preact/hooks'

/**
 * The Content API's own Markdown renderer (markdown-it, then sanitize-html), so a preview shows
 * what readers get. It is large beside the rest of the dashboard (docs/content.md), so it is a
 * chunk of its own (dashboard/build.ts splits at this import()), fetched when an editor first
 * needs it rather than with the first page.
 */
type Renderer = typeof import('@shared/services/content/render.ts')

let loading: Promise<Renderer> | undefined
export function loadRenderer(): Promise<Renderer> {
  if (!loading) {
    loading = import('@shared/services/content/render.ts')
    // A failed fetch (offline) is tried again next time.
    loading.catch(() => {
      loading = undefined
    })
  }
  return loading
}

/** The renderer once loaded (undefined until then), and the error if it could not be fetched. */
export function useRenderer(): { renderer?: Renderer; error?: unknown } {
  const [state, setState] = useState<{ renderer?: Renderer; error?: unknown }>({})
  useEffect(() => {
    let live = true
    loadRenderer().then(
      (renderer) => live && setState({ renderer }),
      (error) => live && setState({ error }),
    )
    return () => {
      live = false
    }
  }, [])
  return state
}
