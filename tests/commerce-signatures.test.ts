// Our verifier (WebCrypto, shared/services/commerce/verify.ts) against independent implementations:
// node:crypto's HMAC, RFC 4231's published HMAC-SHA256 test vector, and a Shopify-style vector
// published in SQLPage's test suite. Plus the JSON reader that keeps 64-bit ids exact.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  PayloadError,
  parseShopJson,
  readJsonBody,
  readProduct,
} from '../shared/services/commerce/payloads.ts'
import { signShopBody, verifyShopSignature } from '../shared/services/commerce/verify.ts'
import { nodeSign, shopifyProduct } from './support/commerce.ts'

const bytes = (s: string) => new TextEncoder().encode(s)

describe('shop signature verification', () => {
  it('accepts what node:crypto signs, for random secrets and arbitrary bytes', async () => {
    for (let i = 0; i < 50; i++) {
      const secret = randomBytes(1 + (i % 40)).toString('base64')
      const body = randomBytes(i * 37)
      const header = nodeSign(secret, body)
      expect(await verifyShopSignature(secret, new Uint8Array(body), header)).toBe(true)
      expect(await signShopBody(secret, new Uint8Array(body))).toBe(header)
    }
  })

  it('matches RFC 4231 test case 2 (HMAC-SHA256, key "Jefe")', async () => {
    const expectedHex = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'
    const header = Buffer.from(expectedHex, 'hex').toString('base64')
    expect(await verifyShopSignature('Jefe', bytes('what do ya want for nothing?'), header)).toBe(true)
  })

  it("matches a published Shopify webhook vector (SQLPage's hmac sha256-base64 test)", async () => {
    const body = '{"id":1234567890,"email":"customer@example.com","total_price":"123.45"}'
    const header = 'QNyObTlKbMx2qDlPF/ZOZcBqg5OgPg+2oky3zldc0Gw='
    expect(await verifyShopSignature('test-webhook-secret', bytes(body), header)).toBe(true)
    expect(await verifyShopSignature('test-webhook-secret', bytes(`${body} `), header)).toBe(false)
  })

  it('refuses a wrong secret, a changed byte, hex instead of base64, and malformed headers', async () => {
    const body = bytes(shopifyProduct({ updatedAt: '2021-12-31T19:00:00-05:00' }))
    const good = nodeSign('s3cret-value', Buffer.from(body))
    expect(await verifyShopSignature('s3cret-value', body, good)).toBe(true)
    expect(await verifyShopSignature('s3cret-valuf', body, good)).toBe(false)
    const tampered = new Uint8Array(body)
    tampered[10] = tampered[10]! ^ 1
    expect(await verifyShopSignature('s3cret-value', tampered, good)).toBe(false)
    const hex = Buffer.from(good, 'base64').toString('hex')
    for (const header of ['', hex, good.slice(0, -2), `${good}AA`, 'sha256=abc', '\u0000'.repeat(44)])
      expect(await verifyShopSignature('s3cret-value', body, header), header).toBe(false)
  })
})

describe('reading shop JSON', () => {
  it('keeps integers beyond 2^53 exactly, as strings, and leaves the rest alone', () => {
    const parsed = parseShopJson(
      '{"id":820982911946154508,"n":-9007199254740993,"small":632910392,"price":"199.00","f":1.5e3,"s":"12345678901234567890","a":[115310627314723954]}',
    ) as Record<string, unknown>
    expect(parsed).toEqual({
      id: '820982911946154508',
      n: '-9007199254740993',
      small: 632910392,
      price: '199.00',
      f: 1500,
      s: '12345678901234567890',
      a: ['115310627314723954'],
    })
    // What plain JSON.parse would have stored instead:
    expect(String(JSON.parse('{"id":820982911946154508}').id)).not.toBe('820982911946154508')
  })

  it('reads a Shopify product with exact ids and decimal prices', () => {
    const p = readProduct(
      'shopify',
      readJsonBody(bytes(shopifyProduct({ updatedAt: '2022-01-01T00:00:00Z' }))),
    )
    expect(p.external_id).toBe('788032119674292922')
    expect(p.variants.map((v) => v.external_id)).toEqual(['642667041472713922', '757650484644203962'])
    expect(p.price_min).toBe('19.99')
    expect(p.inventory_quantity).toBe(125)
  })

  it('calls a body that is not JSON, or not the shape, a PayloadError', () => {
    expect(() => readJsonBody(bytes('{"id":'))).toThrow(PayloadError)
    expect(() => readJsonBody(new Uint8Array([0xff, 0xfe]))).toThrow(PayloadError)
    expect(() => readProduct('shopify', { id: 1 })).toThrow(PayloadError)
  })
})
