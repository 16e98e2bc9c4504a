import { describe, expect, it } from 'vitest'
import { sha256Hex } from '../shared/infra/crypto.ts'
import { hashKey } from '../shared/infra/keys.ts'

// Stored key hashes are compared as text: the hex must stay lower-case SHA-256 of the UTF-8 bytes.
describe('sha256Hex', () => {
  it('gives the FIPS 180-2 test vectors, lower-case', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    )
  })

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    // printf 'é€😀' | sha256sum
    expect(hashKey('é€😀')).toBe('df9226927fd572c1ee66eec85de1bb139497614899f36e4e90474cb71f6ef9d0')
  })
})
