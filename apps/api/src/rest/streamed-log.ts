import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { FightLog } from '@app/audit';
import { isFresh, ReplyStream } from '../common/http-reply';

/** The media types a fight log is sent in (GET /fights/:id/log negotiates between them as they are). */
export const LOG_TYPES = {
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
} as const;

/** Entries serialised between two turns of the event loop: a few hundred KB, a millisecond or two. */
const ENTRIES_PER_CHUNK = 500;

/**
 * Writes a fight log as the JSON document (byte for byte what `JSON.stringify(log)` gives) or as
 * NDJSON (what `toNdjson(log)` gives), a chunk of entries at a time with a turn of the event loop
 * between chunks and the socket's backpressure honoured, so a 50,000-event export does not stall
 * the other requests. The log is named by its length and head hash: that is its ETag, and an
 * If-None-Match that has it gets 304 without a body.
 */
export async function sendFightLog(reply: FastifyReply, log: FightLog, ndjson: boolean): Promise<void> {
  // One tag per representation: the NDJSON text is not the JSON text (RFC 9110 section 8.8.3).
  const etag = `W/"log-${ndjson ? 'ndjson-' : ''}${log.events}-${log.headHash}"`;
  void reply.header('etag', etag);
  if (isFresh(reply.request, etag)) return void reply.code(304).send();
  void reply.type(ndjson ? LOG_TYPES.ndjson : LOG_TYPES.json);
  const out = new ReplyStream(reply);
  const { entries, ...header } = log;
  const head = JSON.stringify(header);
  await out.write(ndjson ? `${head}\n` : `${head.slice(0, -1)},"entries":[`);
  for (let i = 0; i < entries.length && !out.closed; i += ENTRIES_PER_CHUNK) {
    const chunk = entries.slice(i, i + ENTRIES_PER_CHUNK).map((e) => JSON.stringify(e));
    await out.write(ndjson ? `${chunk.join('\n')}\n` : `${i > 0 ? ',' : ''}${chunk.join(',')}`);
    await nextTurn();
  }
  out.end(ndjson ? '' : ']}');
}
