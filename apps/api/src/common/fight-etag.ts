import type { FastifyReply as Response } from 'fastify';

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
 * the view a command answered with and revalidate it with GET later. Called by the handler (no
 * interceptor: these are the hottest routes, and an interceptor costs an rxjs pipeline per request).
 */
export function withFightETag<T>(res: Response, result: T): T {
  const tag = fightETag(result);
  if (tag) void res.header('ETag', tag);
  return result;
}
