import type { Request, Response } from 'express';
import { AppError } from '@app/fights';

/**
 * One paging style for every REST list: `?limit=` and an opaque `?cursor=`; the next page, when
 * there is one, is in `Link: <…>; rel="next"` (RFC 8288) and `X-Next-Cursor`. Bodies keep their
 * shape, so a client that never sends a cursor sees what it always saw.
 */
export type Cursor = { list: 'fights'; offset: number } | { list: 'events'; after: number } | { list: 'deliveries'; before: number; skip: number };

const FIELDS: Record<Cursor['list'], string[]> = { fights: ['offset'], events: ['after'], deliveries: ['before', 'skip'] };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** A cursor this list gave out, or 400 INVALID_CURSOR; an old paging parameter beside it is a contradiction. */
export function decodeCursor<L extends Cursor['list']>(list: L, raw: string | undefined, old: Record<string, unknown>): Extract<Cursor, { list: L }> | undefined {
  if (raw === undefined) return undefined;
  const given = Object.keys(old).filter((k) => old[k] !== undefined);
  if (given.length) throw new AppError(400, 'VALIDATION_FAILED', `give cursor or ${given.join(', ')}, not both: the cursor holds the position`, given[0]);
  let value: unknown;
  try {
    value = /^[A-Za-z0-9_-]{1,200}$/.test(raw) ? JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) : undefined;
  } catch {
    value = undefined;
  }
  const c = value as Record<string, unknown> | undefined;
  const fields = FIELDS[list];
  const valid =
    typeof c === 'object' && c !== null && c.list === list && Object.keys(c).length === fields.length + 1 && fields.every((f) => Number.isSafeInteger(c[f]) && (c[f] as number) >= 0);
  if (!valid) throw new AppError(400, 'INVALID_CURSOR', 'cursor is not one this list gave out: send back X-Next-Cursor (or follow Link rel="next") as it came', 'cursor');
  return c as Extract<Cursor, { list: L }>;
}

/**
 * Sets `Link` and `X-Next-Cursor` for the page after this one. The link keeps the request's filters
 * and limit, drops the paging parameters the cursor replaces, and never repeats a `?token=` secret.
 */
export function linkNext(req: Request, res: Response, next: Cursor | undefined): void {
  if (!next) return;
  const cursor = encodeCursor(next);
  const url = new URL(req.originalUrl, 'http://x');
  for (const name of ['cursor', 'token', ...FIELDS[next.list]]) url.searchParams.delete(name);
  url.searchParams.set('cursor', cursor);
  res.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
  res.setHeader('X-Next-Cursor', cursor);
}
