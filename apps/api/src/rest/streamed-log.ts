import type { Response } from 'express';
import type { FightLog } from '@app/audit';

/** Entries serialised between two turns of the event loop: a few hundred KB, a millisecond or two. */
const ENTRIES_PER_CHUNK = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves on the socket's next 'drain' or its 'close', whichever comes first, and leaves no listener behind. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a fight log as the JSON document (byte for byte what `JSON.stringify(log)` gives) or as
 * NDJSON (what `toNdjson(log)` gives), a chunk of entries at a time with a turn of the event loop
 * between chunks and the socket's backpressure honoured, so a 50,000-event export does not stall
 * the other requests. The log is named by its length and head hash: that is its ETag, and an
 * If-None-Match that has it gets 304 without a body.
 */
export async function sendFightLog(res: Response, log: FightLog, ndjson: boolean): Promise<void> {
  res.setHeader('ETag', `W/"log-${log.events}-${log.headHash}"`);
  res.setHeader(
    'Content-Type',
    ndjson ? 'application/x-ndjson; charset=utf-8' : 'application/json; charset=utf-8',
  );
  if (res.req.fresh) {
    res.status(304).end();
    return;
  }
  const { entries, ...header } = log;
  const head = JSON.stringify(header);
  const write = async (text: string) => {
    if (!res.write(text)) await drainedOrClosed(res);
  };
  await write(ndjson ? `${head}\n` : `${head.slice(0, -1)},"entries":[`);
  for (let i = 0; i < entries.length && !res.destroyed; i += ENTRIES_PER_CHUNK) {
    const chunk = entries.slice(i, i + ENTRIES_PER_CHUNK).map((e) => JSON.stringify(e));
    await write(ndjson ? `${chunk.join('\n')}\n` : `${i > 0 ? ',' : ''}${chunk.join(',')}`);
    await nextTurn();
  }
  res.end(ndjson ? '' : ']}');
}
