/**
 * Secret columns (ciphertexts of credentials, OAuth and MCP tokens, webhook signing secrets) are
 * not granted to role `authenticated`, so the Data API can never show them. A service that needs
 * one for the caller does it in two steps, always in this order:
 *
 * 1. under row-level security, as the caller (ctx.asTenant): is the row there and may the caller use
 *    it? Nothing found (or refused) is 404, and the secrets are never touched;
 * 2. only then, on the owner connection, the secret columns of that row only (by id and tenant).
 *
 * `usingSecretsOf` is that order, in one place. Its second step may also be a write (a rotation)
 * or a claim (a token refresh under its lease); it reads or writes the one row the first step
 * found, and what it returns is returned as is (a row gone in between is the caller's to handle).
 */
import type { Sql, Tx } from './db.ts'
import type { ServiceContext } from './deps.ts'
import { notFound } from './errors.ts'

/**
 * `owner` is the context's owner handle, passed by the caller (`ctx.asOwner`) so that each use
 * stands in the owner-handle allow-list (tests/checks/owner-handle-allow-list.test.ts) at its call site.
 */
export async function usingSecretsOf<V, S>(
  ctx: Pick<ServiceContext, 'asTenant'>,
  owner: Sql,
  what: string,
  /** As the caller, under row-level security: the row, or undefined when it is not there for them. */
  mayUse: (tx: Tx) => Promise<V | undefined>,
  /** On the owner connection, for that row only. */
  secrets: (owner: Sql, row: V) => Promise<S>,
): Promise<S> {
  const row = await ctx.asTenant(mayUse)
  if (row === undefined) throw notFound(what)
  return secrets(owner, row)
}
