// The one Markdown renderer (shared/services/content/render.ts) against known XSS payloads: raw
// HTML, Markdown links and images, entity and case tricks, and style injection. Whatever the input,
// the output has no script or style element, no event-handler or style attribute (but the fixed
// table alignments), and no URL with a scheme other than http(s) or mailto.
import { describe, expect, it } from 'vitest'
import { excerptOf, renderHtml, renderPlaintext } from '../shared/services/content/render.ts'

const payloads = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<img src=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)>',
  '<img src="jav&#x09;ascript:alert(1)">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="></object>',
  '<embed src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JAVASCRIPT:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="&#x6A;avascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="https://ok.example" onclick="alert(1)">x</a>',
  '<a href="https://ok.example" onmouseover=alert(1)>x</a>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD4=)',
  '[x](vbscript:alert(1))',
  '[x](<javascript:alert(1)>)',
  '![x](javascript:alert(1))',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '[x]: javascript:alert(1)\n\n[y][x]',
  '<javascript:alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="position:fixed;top:0;left:0;width:100%;height:100%">x</p>',
  '<style>body{display:none}</style>',
  '<link rel=stylesheet href=https://evil.example/x.css>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<textarea><script>alert(1)</script></textarea>',
  '<table><td style="text-align:right;background:url(x)">x</td></table>',
  '| a |\n|---|\n| <img src=x onerror=alert(1)> |',
  '`<script>alert(1)</script>`',
  '```html\n<script>alert(1)</script>\n```',
  '<scr<script>ipt>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<img """><script>alert(1)</script>">',
  '<a href="//evil.example">x</a>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<video><source onerror=alert(1)></video>',
  '<code class="x onclick=alert(1)">x</code>',
]

/** Every tag in the output and its attributes, read with a tolerant scan of the HTML. */
function tags(html: string) {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => ({
    name: m[1]!.toLowerCase(),
    attrs: [...m[2]!.matchAll(/([^\s=/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)].map((a) => ({
      name: a[1]!.toLowerCase(),
      value: (a[2] ?? '').replace(/^["']|["']$/g, ''),
    })),
  }))
}

const allowedTags = new Set(
  'h1 h2 h3 h4 h5 h6 p br hr blockquote pre code em strong del s sub sup kbd ul ol li a img figure figcaption table thead tbody tr th td'.split(
    ' ',
  ),
)

describe('the renderer against known XSS payloads', () => {
  it.each(payloads)('%s', (payload) => {
    const html = renderHtml(payload)
    for (const tag of tags(html)) {
      expect(allowedTags.has(tag.name), `tag ${tag.name} in ${html}`).toBe(true)
      for (const attr of tag.attrs) {
        expect(attr.name.startsWith('on'), `${attr.name} in ${html}`).toBe(false)
        if (attr.name === 'style') expect(attr.value).toMatch(/^text-align:(left|right|center);?$/)
        if (attr.name === 'href' || attr.name === 'src') {
          const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(attr.value.replace(/&#?\w+;/g, '').trim())
          if (scheme)
            expect(['http', 'https', 'mailto'], `${attr.value} in ${html}`).toContain(
              scheme[1]!.toLowerCase(),
            )
          expect(attr.value.startsWith('//'), `${attr.value}`).toBe(false)
        }
        if (attr.name === 'class') expect(attr.value).toMatch(/^language-[\w-]+$/)
      }
    }
    // The payload may survive as text (escaped), never as markup.
    expect(html.toLowerCase()).not.toMatch(/<script|<style|<iframe|<object|<embed|<svg/)
  })

  it('renders ordinary Markdown as readers expect', () => {
    expect(
      renderHtml('# Title\n\nA [link](https://example.com "t") and ![alt](https://img.example.com/a.png)'),
    ).toBe(
      '<h1>Title</h1>\n<p>A <a href="https://example.com" title="t" rel="noopener noreferrer">link</a> and <img src="https://img.example.com/a.png" alt="alt" /></p>\n',
    )
    expect(renderHtml('| a | b |\n|--:|:-:|\n| 1 | 2 |')).toContain('<td style="text-align:right">1</td>')
    expect(renderHtml('```js\nlet x = 1 < 2\n```')).toBe(
      '<pre><code class="language-js">let x = 1 &lt; 2\n</code></pre>\n',
    )
  })

  it('gives plain text and a bounded excerpt from the first paragraph', () => {
    expect(renderPlaintext('# Hi\n\nSome **bold** & <b>tags</b><script>alert(1)</script>')).toBe(
      'Hi\n\nSome bold & tags',
    )
    expect(excerptOf('# Heading\n\nFirst *para*.\n\nSecond.')).toBe('First para.')
    const long = excerptOf(`${'word '.repeat(200)}`)
    expect(long.length).toBeLessThanOrEqual(300)
    expect(long.endsWith('…')).toBe(true)
  })
})
