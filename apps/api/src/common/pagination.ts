import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import { AppError, FightQueries, FightService, FightSummary, Principal } from '@app/fights';
import type { DeliveryView, WebhookService } from '@app/webhooks';
import { EVENTS_MAX_PAGE, EVENTS_PAGE } from './dto';
import { UNSTORABLE } from './body-checks';

/**
 * One paging style for every list, REST and GraphQL: a limit and an opaque cursor in; the cursor of
 * the next page, when there is one, out. REST sends it in `Link: <…>; rel="next"` (RFC 8288) and
 * `X-Next-Cursor` (and `nextCursor` in an envelope body); GraphQL in the page's `nextCursor` field.
 * A cursor is the same string on both, so one from a REST header pages a GraphQL field and back.
 *
 * Every cursor is a keyset position: the sort key of the last item listed, and the next page is
 * what sorts after it. Nothing is counted and nothing is skipped, so a page costs its own rows
 * however deep it is, and rows written meanwhile never shift a page.
 */
export type Cursor =
  /**
   * Fights, newest first: after (createdAt, fightId). `total` is the count a page of this listing made
   * when asked, carried on so the pages after it need not count again; `shape` says whose list and
   * which filters it counted (listShape), which instance counted it and that instance's seal over the
   * cursor (sealOf): a cursor sent with another shape, or sealed by another instance, counts afresh.
   */
  | { list: 'fights'; created: string; id: string; total?: number; shape?: string }
  /** A fight's events: after this seq; `of` the fight's id (a cursor of another fight's events is refused). */
  | { list: 'events'; after: number; of?: string }
  /** An endpoint's deliveries, newest first: after (createdAt ms, seq, deliveryId); `of` the endpoint's id. */
  | { list: 'deliveries'; created: number; seq: number; id: string; of?: string }
  /**
   * The small lists (tenants, keys, a fight's tokens, webhook endpoints), oldest first: after (createdAt, id);
   * `of` the fight whose tokens they are.
   */
  | { list: SmallList; created: string; id: string; of?: string };

/** Lists the service holds whole (in memory, or one query per tenant): paged the same way, by (createdAt, id). */
export type SmallList = 'tenants' | 'keys' | 'tokens' | 'endpoints';

type FieldKind = 'count' | 'time' | 'id';
/** The fields each list's cursor must hold. */
const FIELDS: { [L in Cursor['list']]: Record<string, FieldKind> } = {
  fights: { created: 'time', id: 'id' },
  events: { after: 'count' },
  deliveries: { created: 'count', seq: 'count', id: 'id' },
  tenants: { created: 'time', id: 'id' },
  keys: { created: 'time', id: 'id' },
  tokens: { created: 'time', id: 'id' },
  endpoints: { created: 'time', id: 'id' },
};
/** The fields it may hold besides, together or not at all. */
const OPTIONAL: { [L in Cursor['list']]?: Record<string, FieldKind> } = {
  fights: { total: 'count', shape: 'id' },
  // Cursors given out before they named their list's owner carry none: still taken.
  events: { of: 'id' },
  deliveries: { of: 'id' },
  tokens: { of: 'id' },
};
/** Old paging parameters a cursor replaces: the next page's link drops them. */
const REPLACES: { [L in Cursor['list']]: string[] } = {
  fights: ['offset'],
  events: ['after'],
  deliveries: ['before'],
  tenants: [],
  keys: [],
  tokens: [],
  endpoints: [],
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const FIELD_OK: Record<FieldKind, (v: unknown) => boolean> = {
  count: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  time: (v) => typeof v === 'string' && ISO_TIME.test(v),
  // No U+0000 or lone surrogate: no id holds one, and PostgreSQL cannot even compare a string that does (a 500).
  id: (v) => typeof v === 'string' && v.length >= 1 && v.length <= 64 && !UNSTORABLE.test(v),
};

/**
 * The longest cursor a list gives out (carrying keeps a fights cursor within it). It bounds no parameter: a
 * client does not build cursors, so a string of any other length, empty too, is just one no list gave out.
 */
const CURSOR_MAX = 200;
/** base64url, of a length a list gives out. */
const CURSOR_TEXT = new RegExp(`^[A-Za-z0-9_-]{1,${CURSOR_MAX}}$`);

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/**
 * A cursor this list gave out, or 400 INVALID_CURSOR, field `cursor` (whatever else the string is: edited,
 * another list's, one naming an owner other than `owner` — another fight's events, another endpoint's
 * deliveries —, empty or too long; REST and GraphQL alike); an old paging parameter beside it is a
 * contradiction.
 */
export function decodeCursor<L extends Cursor['list']>(
  list: L,
  raw: string | undefined | null,
  old: Record<string, unknown>,
  owner?: string,
): Extract<Cursor, { list: L }> | undefined {
  if (raw === undefined || raw === null) return undefined;
  const given = Object.keys(old).filter((k) => old[k] !== undefined && old[k] !== null);
  if (given.length)
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      `give cursor or ${given.join(', ')}, not both: the cursor holds the position`,
      given[0],
    );
  let value: unknown;
  try {
    value = CURSOR_TEXT.test(raw) ? JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) : undefined;
  } catch {
    value = undefined;
  }
  const c = value as Record<string, unknown> | undefined;
  const fields = Object.entries(FIELDS[list]);
  const optional: Array<[string, FieldKind]> = Object.entries(OPTIONAL[list] ?? {});
  const extra = optional.filter(([f]) => typeof c === 'object' && c !== null && Object.hasOwn(c, f));
  const valid =
    typeof c === 'object' &&
    c !== null &&
    !Array.isArray(c) &&
    c.list === list &&
    (extra.length === 0 || extra.length === optional.length) &&
    Object.keys(c).length === fields.length + extra.length + 1 &&
    [...fields, ...extra].every(([f, kind]) => Object.hasOwn(c, f) && FIELD_OK[kind](c[f])) &&
    // As this service writes it, to the byte: no key twice (JSON.parse would keep the last), no other spelling.
    encodeCursor(c as Cursor) === raw &&
    (owner === undefined || c.of === undefined || c.of === owner);
  if (!valid) throw invalidCursor();
  return c as Extract<Cursor, { list: L }>;
}

const invalidCursor = () =>
  new AppError(
    400,
    'INVALID_CURSOR',
    'cursor is not one this list gave out: send back X-Next-Cursor / nextCursor (or follow Link rel="next") as it came',
    'cursor',
  );

/**
 * Sets `Link` and `X-Next-Cursor` for the page after this one. The link keeps the request's filters
 * and limit, drops the paging parameters the cursor replaces, and never repeats a `?token=` secret.
 */
export function linkNext(req: Request, res: Response, next: Cursor | undefined): string | undefined {
  if (!next) return undefined;
  const cursor = encodeCursor(next);
  const url = new URL(req.originalUrl, 'http://x');
  for (const name of ['cursor', 'token', ...REPLACES[next.list]]) url.searchParams.delete(name);
  url.searchParams.set('cursor', cursor);
  void res.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
  void res.header('X-Next-Cursor', cursor);
  return cursor;
}

/**
 * Sent with a fight list the read side had not brought up to the log within the wait (FightQueries.listCaughtUp):
 * a write made before the request may be missing from it.
 */
export const READ_MODEL_STALE = 'X-Read-Model-Stale';

/** The default and largest page of each list (REST and GraphQL alike). */
export const PAGES = {
  fights: { fallback: 20, max: 100 },
  events: { fallback: EVENTS_PAGE, max: EVENTS_MAX_PAGE },
  deliveries: { fallback: 50, max: 200 },
  small: { fallback: 1000, max: 1000 },
} as const;

type FightEvent = Awaited<ReturnType<FightService['events']>>[number];

export interface Page<T> {
  items: T[];
  limit: number;
  next?: Cursor;
}

/**
 * Fights, newest first, a keyset page after the cursor's (createdAt, fightId); `offset` still pages the
 * older way. With `total`, the matching fights are counted once for a listing: by the first page that
 * asks, whose count the next cursor carries to the pages after it (a count scans every matching row, a
 * page only its own). So a total is the count when the listing started, as the keyset pages are the
 * list as it was then; a new listing (no cursor) counts afresh. Read once the read side holds every event
 * committed when it was asked (`stale` when it did not within the wait): a client lists its own writes.
 */
export async function fightsPage(
  queries: FightQueries,
  p: Principal,
  q: {
    system?: string | null;
    status?: string | null;
    limit?: number | null;
    offset?: number | null;
    cursor?: string | null;
  },
  want: { total?: boolean } = {},
): Promise<Page<FightSummary> & { offset?: number; total?: number; stale?: true }> {
  const from = decodeCursor('fights', q.cursor, { offset: q.offset });
  // A cursor of a listing that counted carries its total on: followed alone (X-Next-Cursor), its pages repeat it.
  const wantTotal = want.total ?? from?.total !== undefined;
  const caughtUp = await queries.listCaughtUp();
  const limit = q.limit ?? PAGES.fights.fallback;
  const filter = { system: q.system ?? undefined, status: q.status ?? undefined };
  const shape = listShape(p, filter);
  const carried = from && carriedTotal(from, shape);
  const [page, total] = await Promise.all([
    queries.listFor(
      p,
      from
        ? { ...filter, limit, after: { createdAt: from.created, fightId: from.id } }
        : { ...filter, limit, offset: q.offset ?? 0 },
    ),
    wantTotal && carried === undefined ? queries.countFor(p, filter) : carried,
  ]);
  return {
    items: page.items,
    limit,
    ...(page.offset === undefined ? {} : { offset: page.offset }),
    ...(wantTotal ? { total } : {}),
    ...(caughtUp ? {} : { stale: true as const }),
    next:
      page.next &&
      carrying({ list: 'fights', created: page.next.createdAt, id: page.next.fightId }, total, shape),
  };
}

/** The cursor with the count, unless that makes it longer than a cursor may be (CURSOR_MAX). */
function carrying(
  next: Extract<Cursor, { list: 'fights' }>,
  total: number | undefined,
  shape: string,
): Extract<Cursor, { list: 'fights' }> {
  if (total === undefined) return next;
  const carried = { ...next, total, shape: `${shape}${INSTANCE}${sealOf(next, total, shape)}` };
  return encodeCursor(carried).length <= CURSOR_MAX ? carried : next;
}

/**
 * The key this instance seals the totals it counted with, and its id (4 characters) in the cursors it
 * seals. A client that edits a cursor's total (or its position, or its shape) breaks the seal: 400
 * INVALID_CURSOR. A cursor sealed by another instance, or before this one started, cannot be checked
 * here: its total is not taken on trust but counted afresh, as for a cursor without one.
 */
const SEAL_KEY = randomBytes(32);
const INSTANCE = createHash('sha256').update(SEAL_KEY).digest('base64url').slice(0, 4);
/** Characters of the shape (listShape), the instance's id and the seal, in the cursor's `shape`. */
const SHAPE = 8;
const SEALED_SHAPE = /^[A-Za-z0-9_-]{24}$/;

function sealOf(at: { created: string; id: string }, total: number, shape: string): string {
  return createHmac('sha256', SEAL_KEY)
    .update(JSON.stringify(['fights', at.created, at.id, total, shape]))
    .digest('base64url')
    .slice(0, 12);
}

/**
 * The total a fights cursor carries for this listing (`shape`), if this instance sealed it: undefined when
 * it carries none, counted another listing, or was sealed elsewhere (counted afresh); 400 INVALID_CURSOR
 * when this instance's seal does not hold (the cursor was edited).
 */
function carriedTotal(from: Extract<Cursor, { list: 'fights' }>, shape: string): number | undefined {
  if (from.total === undefined || from.shape === undefined) return undefined;
  const sealed = from.shape;
  if (!SEALED_SHAPE.test(sealed)) throw invalidCursor();
  if (sealed.slice(0, SHAPE) !== shape || sealed.slice(SHAPE, SHAPE + INSTANCE.length) !== INSTANCE)
    return undefined;
  const expected = Buffer.from(sealOf(from, from.total, shape));
  const given = Buffer.from(sealed.slice(SHAPE + INSTANCE.length));
  if (!timingSafeEqual(expected, given)) throw invalidCursor();
  return from.total;
}

/** Whose fight list and which filters, in a few characters: a carried total counts this shape only. */
function listShape(p: Principal, filter: { system?: string; status?: string }): string {
  const scope =
    p.kind === 'admin' ? 'admin' : p.kind === 'tenant' ? `tenant:${p.tenantId}` : `fight:${p.fightId}`;
  return createHash('sha256')
    .update(JSON.stringify([scope, filter.system ?? null, filter.status ?? null]))
    .digest('base64url')
    .slice(0, SHAPE);
}

/** A fight's events in seq order, after the cursor's seq (or `after`). */
export async function eventsPage(
  fights: FightService,
  fightId: string,
  q: { after?: number | null; limit?: number | null; cursor?: string | null },
): Promise<Page<FightEvent>> {
  const after = decodeCursor('events', q.cursor, { after: q.after }, fightId)?.after ?? q.after ?? 0;
  const limit = q.limit ?? PAGES.events.fallback;
  // One more than the page: whether a next page exists, without reading the rest of the fight.
  const events = await fights.events(fightId, after, limit + 1);
  const items = events.slice(0, limit);
  return {
    items,
    limit,
    next:
      events.length > limit ? { list: 'events', after: items[items.length - 1].seq, of: fightId } : undefined,
  };
}

/** An endpoint's deliveries, newest first, a keyset page after the cursor's (createdAt, seq, id); `before` still starts at a time. */
export async function deliveriesPage(
  webhooks: WebhookService,
  tenantId: string,
  endpointId: string,
  q: {
    status?: 'pending' | 'delivered' | 'failed';
    fightId?: string | null;
    limit?: number | null;
    before?: string | null;
    cursor?: string | null;
  },
): Promise<Page<DeliveryView>> {
  const from = decodeCursor('deliveries', q.cursor, { before: q.before }, endpointId);
  const limit = q.limit ?? PAGES.deliveries.fallback;
  const before = q.before ? Date.parse(q.before) : undefined;
  const rows = await webhooks.deliveries(tenantId, endpointId, {
    status: q.status,
    fightId: q.fightId ?? undefined,
    limit: limit + 1,
    before,
    after: from && { createdAt: from.created, seq: from.seq, id: from.id },
  });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    limit,
    next:
      rows.length > limit
        ? {
            list: 'deliveries',
            created: Date.parse(last.createdAt),
            seq: last.seq,
            id: last.id,
            of: endpointId,
          }
        : undefined,
  };
}

/**
 * A page of a small list, oldest first by (createdAt, id), after the cursor's key. These lists were
 * bare arrays of everything; a page of 1000 keeps that for any list of a sensible size, and longer
 * ones go on in Link rel="next" like every other list.
 */
export function smallPage<T extends { createdAt: string }>(
  list: SmallList,
  all: T[],
  idOf: (item: T) => string,
  q: { limit?: number | null; cursor?: string | null },
  /** The list's owner (the fight whose tokens they are): a cursor of another's list is refused. */
  of?: string,
): Page<T> {
  const from = decodeCursor(list, q.cursor, {}, of);
  const limit = q.limit ?? PAGES.small.fallback;
  const key = (item: T): [string, string] => [item.createdAt, idOf(item)];
  const before = (a: [string, string], b: [string, string]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  const sorted = [...all].sort((a, b) => (before(key(a), key(b)) ? -1 : before(key(b), key(a)) ? 1 : 0));
  const rest = from ? sorted.filter((item) => before([from.created, from.id], key(item))) : sorted;
  const items = rest.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    limit,
    next:
      rest.length > limit && last
        ? { list, created: last.createdAt, id: idOf(last), ...(of === undefined ? {} : { of }) }
        : undefined,
  };
}
