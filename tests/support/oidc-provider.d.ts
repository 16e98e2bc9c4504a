// oidc-provider ships no type declarations; the test server needs only a loose shape.
declare module 'oidc-provider' {
  // biome-ignore lint/suspicious/noExplicitAny: deliberately untyped third-party surface
  type Loose = any
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, Loose>)
    [member: string]: Loose
  }
}
