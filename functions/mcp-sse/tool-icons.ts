import { integrationBySlug } from '@shared/services/integrations/catalog.ts'

/**
 * An icon per integration on each listed tool (MCP `icons`, since 2025-11-25), so a client can show
 * which service a tool acts on. The catalog has no artwork, so each integration gets a badge with
 * its initial, drawn as an SVG data URI (no request to a third party, same on every instance).
 */

const PALETTE = ['#1f4fd1', '#0f7b6c', '#b3261e', '#7b3fe4', '#c25e00', '#2b6a3f', '#5b5b66']

function badge(letter: string, color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${color}"/><text x="32" y="43" font-family="sans-serif" font-size="30" font-weight="700" text-anchor="middle" fill="#fff">${letter}</text></svg>`
  return `data:image/svg+xml;base64,${btoa(svg)}`
}

const cache = new Map<string, { src: string; mimeType: string; sizes: string[] }[]>()

/** The integration's slug in an MCP tool name: `github__create_issue`, `custom-mcp@1a2b3c4d__x`. */
const toolSlug = (mcpName: string) => mcpName.split('__')[0]!.replace(/[@_][0-9a-f]{8}$/, '')

export function toolIcons(mcpName: string): { src: string; mimeType: string; sizes: string[] }[] {
  const slug = toolSlug(mcpName)
  let icons = cache.get(slug)
  if (!icons) {
    const name = slug === 'platform' ? 'Platform' : (integrationBySlug(slug)?.name ?? slug)
    const hue = [...slug].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % PALETTE.length
    const letter = (name.match(/[A-Za-z0-9]/)?.[0] ?? '?').toUpperCase()
    icons = [{ src: badge(letter, PALETTE[hue]!), mimeType: 'image/svg+xml', sizes: ['any'] }]
    cache.set(slug, icons)
  }
  return icons
}
