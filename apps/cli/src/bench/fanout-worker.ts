import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * 1,000 graphql-ws subscribers in a process of their own (so that their CPU time, process.cpuUsage,
 * is theirs alone: the bench client shares the machine's cores with the server). For every event
 * received it records the wall time (performance.timeOrigin + now(), comparable across processes)
 * against the event's seq. argv[2]: the job; IPC: `connect` → `ready`, `collect` → `received` (with
 * the CPU used since `ready`), `close` → `closed`.
 */
interface Job {
  wsUrl: string;
  apiKey: string;
  fightId: string;
  after: number;
  subscribers: number;
}

const job = JSON.parse(process.argv[2]) as Job;
const now = () => performance.timeOrigin + performance.now();
const clients: Client[] = [];
/** seq → receive times. */
const received = new Map<number, number[]>();
let live = 0;
let failures = 0;
let cpuAtReady = process.cpuUsage();
let readyAt = now();

const QUERY =
  'subscription ($fightId: ID!, $after: Int) { fightEvents(fightId: $fightId, after: $after) { seq type } }';

async function connect(i: number): Promise<void> {
  const client = createClient({
    url: job.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: { authorization: `Bearer ${job.apiKey}` },
  });
  clients.push(client);
  await new Promise<void>((resolve) => {
    let first = true;
    client.subscribe<{ fightEvents: { seq: number } }>(
      { query: QUERY, variables: { fightId: job.fightId, after: job.after } },
      {
        next: (msg) => {
          const seq = msg.data?.fightEvents.seq;
          if (seq === undefined) return;
          let list = received.get(seq);
          if (!list) received.set(seq, (list = []));
          list.push(now());
          if (first) {
            first = false;
            resolve();
          }
        },
        error: (e) => {
          failures++;
          if (failures <= 3)
            console.error(`subscriber ${i}:`, e instanceof Error ? e.message : JSON.stringify(e));
          resolve();
        },
        complete: () => resolve(),
      },
    );
  });
}

async function onMessage(msg: { type: string }): Promise<void> {
  if (msg.type === 'connect') {
    // Subscribe from `after` = one event back: each subscriber proves it is live by receiving it.
    for (let i = 0; i < job.subscribers; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, job.subscribers - i) }, (_, k) => connect(i + k)));
    }
    live = job.subscribers - failures;
    received.clear();
    cpuAtReady = process.cpuUsage();
    readyAt = now();
    process.send!({ type: 'ready', live, failures });
  } else if (msg.type === 'collect') {
    const cpu = process.cpuUsage(cpuAtReady);
    process.send!({
      type: 'received',
      received: [...received.entries()],
      cpuMicros: cpu.user + cpu.system,
      wallMs: now() - readyAt,
    });
  } else if (msg.type === 'close') {
    await Promise.all(clients.map((c) => Promise.resolve(c.dispose())));
    process.send!({ type: 'closed' }, () => process.exit(0));
  }
}

process.on('message', (msg: { type: string }) => {
  onMessage(msg).catch((e: unknown) => {
    console.error('fan-out client:', e);
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0));
