import { parse } from 'fast-content-type-parse';
import { AppError } from '@app/fights';

/**
 * The media types a request body may have, each written once: the body parsers (http-body.ts) and the
 * 415 check before them (`requireJsonBody`, validation.ts) both read this table, so a type one of them
 * takes is never one the other refuses.
 */
export const BODY_MEDIA = {
  /** `application/json` and any `application/…+json` (RFC 6839). */
  json: { essence: /^application\/(?:[\w.!#$&^-]+\+)?json$/, name: 'application/json' },
  ndjson: { essence: /^application\/x-ndjson$/, name: 'application/x-ndjson' },
} as const;

export type BodyMedia = keyof typeof BODY_MEDIA;

/** What each route's body may be: JSON everywhere, and NDJSON too for a fight log to verify. */
export function bodyMediaOf(path: string): readonly BodyMedia[] {
  return path === '/audit/verify' ? ['json', 'ndjson'] : ['json'];
}

/** The media an essence (a Content-Type's type/subtype, lowercased) is, if it is one of BODY_MEDIA. */
export function bodyMediaOfEssence(essence: string): BodyMedia | undefined {
  return (Object.keys(BODY_MEDIA) as BodyMedia[]).find((m) => BODY_MEDIA[m].essence.test(essence));
}

/** A Content-Type header pattern for Fastify's parser table: the essence in any case, then parameters or nothing. */
export function headerPatternOf(media: BodyMedia): RegExp {
  return new RegExp(`${BODY_MEDIA[media].essence.source.slice(0, -1)}(?:\\s*;|\\s*$)`, 'i');
}

/** A request's Content-Type as the service reads it: its essence (lowercased) and its charset, if named. */
export interface ContentType {
  essence: string;
  charset?: string;
}

const unreadable = (why: string) =>
  new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    `the Content-Type header cannot be read: ${why}`,
    'content-type',
  );

/**
 * The Content-Type of a request with a body, read by RFC 9110's grammar (section 8.3.1, by
 * fast-content-type-parse): `type/subtype`, then `; name=value` parameters, empty ones allowed
 * (`application/json;`). A header that does not parse (`application/json; charset`, `charset=` with no
 * value, two media types) or that names its charset twice (parsers differ on which one counts) is a 415
 * naming `content-type`: the body's format cannot be known, so it is not guessed.
 */
export function contentTypeOf(header: string): ContentType {
  let parsed: { type: string; parameters: Record<string, string> };
  try {
    parsed = parse(header);
  } catch (e) {
    throw unreadable((e as Error).message);
  }
  const charsets = header.match(/;[\t ]*charset[\t ]*=/gi)?.length ?? 0;
  if (charsets > 1) throw unreadable('it names charset more than once');
  const charset = parsed.parameters.charset;
  return charset === undefined
    ? { essence: parsed.type }
    : { essence: parsed.type, charset: charset.toLowerCase() };
}
