import type { FastifyReply as Response } from 'fastify';
import { AppError, viewText } from '@app/fights';

/**
 * The entity tag of a fight's state: its seq and head hash, which name the state exactly (the hash
 * chain). Weak (RFC 9110 section 8.8.1): GET /fights/:id, a command's answer and a creation's answer
 * are different bodies of the same state, so they share the tag without being byte-identical.
 */
export function fightETag(result: unknown): string | undefined {
  const r = result as { seq?: unknown; view?: { headHash?: unknown } } | undefined;
  const hash = r?.view?.headHash;
  return Number.isSafeInteger(r?.seq) && typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash)
    ? `W/"${r!.seq as number}-${hash}"`
    : undefined;
}

/**
 * Sets the fight state's ETag on answers that carry a fight view: GET /fights/:id (where answerNotModified
 * then answers If-None-Match with 304) and the POSTs that change or create a fight, so a client can keep
 * the view a command answered with and revalidate it with GET later; the answer is written with the
 * view's kept text (withViewText). Called by the handler (no interceptor: these are the hottest routes,
 * and an interceptor costs an rxjs pipeline per request).
 */
export function withFightETag<T>(res: Response, result: T): T {
  const tag = fightETag(result);
  if (tag) void res.header('ETag', tag);
  void res.type(JSON_TYPE).serializer(withViewText);
  return result;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `JSON.stringify(result)`, byte for byte, but the fight view's text is the one kept with the view
 * (viewText): written once for a command's answer, the read side's row and every GET of that state.
 * Only a plain object's own enumerable keys are written, as JSON.stringify does (undefined, functions
 * left out); anything else is JSON.stringify's.
 */
export function withViewText(result: unknown): string {
  if (typeof result !== 'object' || result === null || Array.isArray(result) || 'toJSON' in result)
    return JSON.stringify(result);
  let text = answerTexts.get(result);
  if (text === undefined) answerTexts.set(result, (text = answerText(result)));
  return text;
}

/**
 * The text of each answer object written so far. A GET of a state the read store holds answers the same
 * object each time (FightQueries keeps one per row), so it is written once; like a view, an answer
 * object is not changed once it is sent.
 */
const answerTexts = new WeakMap<object, string>();

function answerText(result: object): string {
  let text = '';
  for (const [key, value] of Object.entries(result)) {
    const json =
      key === 'view' && typeof value === 'object' && value !== null && !Array.isArray(value)
        ? viewText(value as Record<string, unknown>)
        : (JSON.stringify(value) as string | undefined);
    if (json !== undefined) text += `${text ? ',' : '{'}${JSON.stringify(key)}:${json}`;
  }
  return text ? `${text}}` : '{}';
}

/** A fight state an If-Match names: its seq and head hash (fightETag's opaque tag). */
export interface FightTag {
  seq: number;
  hash: string;
}

/** An entity tag (RFC 9110 section 8.8.3), weak or strong; its opaque part is the group. */
export const ENTITY_TAG = /^(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;
/** The seq as fightETag writes it: no leading zero, so one state has one tag (If-None-Match compares tags as text). */
const FIGHT_TAG = /^([1-9]\d{0,14})-([0-9a-f]{64})$/;

/**
 * The fight state a command's If-Match names, or undefined when it names none (absent, or `*`: any state
 * of a fight that exists). A list of entity tags is RFC 9110's syntax, but a command applies to one state:
 * more than one tag, or what is no entity tag, is 400 VALIDATION_FAILED naming `if-match`. A tag that is
 * no fight's can match no state: 412. The fight's tags are weak (its representations differ byte for byte)
 * but name its state exactly, so If-Match compares them as names of the state.
 */
export function fightTagOf(header: string | string[] | undefined): FightTag | undefined {
  if (header === undefined) return undefined;
  const value = String(header).trim();
  if (value === '*') return undefined;
  const tags = value.split(',').map((t) => t.trim());
  const opaque = tags.length === 1 ? ENTITY_TAG.exec(tags[0])?.[1] : undefined;
  if (opaque === undefined)
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      'If-Match takes one fight ETag (from GET /fights/:id, a command or the creation) or *',
      'if-match',
    );
  const m = FIGHT_TAG.exec(opaque);
  if (!m) throw preconditionFailed('If-Match names no state of this fight');
  return { seq: Number(m[1]), hash: m[2] };
}

/**
 * The latest seq the fight ETags of an If-None-Match name (0 for none, `*`, or tags that are no fight's): the
 * state the client holds, which a GET must not answer with an older one. What is no list of entity tags is
 * refused before the handler (conditionRefusal); here it names no seq.
 */
export function seenSeq(header: string | string[] | undefined): number {
  if (header === undefined) return 0;
  let seen = 0;
  for (const tag of String(header).split(',')) {
    const opaque = ENTITY_TAG.exec(tag.trim())?.[1];
    const m = opaque === undefined ? null : FIGHT_TAG.exec(opaque);
    if (m) seen = Math.max(seen, Number(m[1]));
  }
  return seen;
}

/** 412: the fight is not in the state If-Match names (or is in one If-None-Match excludes); nothing was applied. */
export const preconditionFailed = (message: string, field = 'if-match') =>
  new AppError(412, 'PRECONDITION_FAILED', message, field);

/**
 * RFC 9110 section 13.1.2, If-None-Match on a command: `*` is false wherever the fight exists (it always does
 * by then: 412), a list of tags is false when one of them names the fight's state now (412); else the command
 * goes on. What is neither is 400 naming `if-none-match`. Checked against the state the command is sent to,
 * as GET's 304 is against the state it reads.
 */
export function refuseNoneMatch(header: string | string[] | undefined, current: unknown): void {
  const tags = entityTags(
    header,
    'if-none-match',
    'fight ETags (from GET /fights/:id, a command or the creation) or *',
  );
  if (tags === undefined) return;
  if (tags === '*')
    throw preconditionFailed(
      'If-None-Match: * applies only where no fight exists, and this one does',
      'if-none-match',
    );
  const now = ENTITY_TAG.exec(fightETag(current) ?? '')?.[1];
  if (now !== undefined && tags.includes(now))
    throw preconditionFailed('If-None-Match names the state the fight is in now', 'if-none-match');
}

/**
 * The opaque tags an If-Match or If-None-Match lists (RFC 9110: `*` or a list of entity tags), or
 * undefined when it is absent. What is neither is 400 VALIDATION_FAILED naming the header.
 */
export function entityTags(
  header: string | string[] | undefined,
  name: 'if-match' | 'if-none-match',
  expected = '* or a list of ETags ("…" or W/"…")',
): '*' | string[] | undefined {
  if (header === undefined) return undefined;
  const value = String(header).trim();
  if (value === '*') return '*';
  const opaque: string[] = [];
  // RFC 9110 section 5.6.1: empty list elements are ignored; an opaque tag may hold a comma (`"a,b"`).
  LIST_ELEMENT.lastIndex = 0;
  while (LIST_ELEMENT.lastIndex < value.length) {
    const at = LIST_ELEMENT.lastIndex;
    const element = LIST_ELEMENT.exec(value);
    if (!element || LIST_ELEMENT.lastIndex === at) break;
    if (element[1] !== undefined) opaque.push(element[1]);
  }
  if (opaque.length === 0 || LIST_ELEMENT.lastIndex < value.length)
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      `${name === 'if-match' ? 'If-Match' : 'If-None-Match'} takes ${expected}`,
      name,
    );
  return opaque;
}

/** One element of a list of entity tags, or an empty one, and the comma after it (or the end). */
const LIST_ELEMENT = /[ \t]*(?:(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(?:,|$)/y;
