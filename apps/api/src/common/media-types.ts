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

/** A Content-Type's type/subtype, lowercased, without its parameters. */
export function essenceOf(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** The media a Content-Type is, if it is one of BODY_MEDIA. */
export function bodyMediaOfType(contentType: string): BodyMedia | undefined {
  const essence = essenceOf(contentType);
  return (Object.keys(BODY_MEDIA) as BodyMedia[]).find((m) => BODY_MEDIA[m].essence.test(essence));
}

/** A Content-Type header pattern for Fastify's parser table: the essence in any case, then parameters or nothing. */
export function headerPatternOf(media: BodyMedia): RegExp {
  return new RegExp(`${BODY_MEDIA[media].essence.source.slice(0, -1)}(?:\\s*;|\\s*$)`, 'i');
}
