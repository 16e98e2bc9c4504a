import type { VNode } from 'preact'

/**
 * True when the dashboard is inside another page's frame. The headers forbid framing
 * (frame-ancestors 'none'), but a static host may be deployed without them: then the dashboard
 * itself refuses to run, so no page of it (an MCP client's consent page above all) can be
 * clicked through an invisible frame.
 */
export function isFramed(): boolean {
  try {
    return window.top !== window.self
  } catch {
    return true
  }
}

/** What a framed dashboard shows instead of itself: no page, no button. */
export function FramedRefusal(): VNode {
  return (
    <main class="narrow">
      <div class="error" role="alert">
        This dashboard does not run inside another page.
        <a href={location.href} target="_top" rel="noopener">
          Open it on its own
        </a>
        .
      </div>
    </main>
  )
}
