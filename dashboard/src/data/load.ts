import { useCallback, useEffect, useRef, useState } from 'preact/hooks'

/** What a page shows while it loads: the data once there, or the error. */
export interface LoadState<T> {
  data?: T
  error?: unknown
  loading: boolean
}

/** Loads data for a page; reload() after a change. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [state, setState] = useState<LoadState<T>>({ loading: true })
  const seq = useRef(0)
  // Resolves once this load has settled (whether or not a later one replaced it), so a caller can
  // keep what it shows meanwhile until the new data is on screen.
  const reload = useCallback((): Promise<void> => {
    const mine = ++seq.current
    setState((s) => ({ ...s, loading: true }))
    return load().then(
      (data) => {
        if (mine === seq.current) setState({ data, loading: false })
      },
      (error) => {
        if (mine === seq.current) setState({ error, loading: false })
      },
    )
  }, deps)
  useEffect(() => {
    void reload()
  }, [reload])
  return { ...state, reload }
}
