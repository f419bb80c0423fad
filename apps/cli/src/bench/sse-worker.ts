/**
 * A client that subscribes to a fight's Server-Sent Events from its first event, reads until its
 * last event has arrived, leaves, and does it again, for `durationSec`: a subscriber catching up on
 * a long fight, back to back. A child process of its own (the app's event loop is what is measured).
 */
interface Job {
  url: string;
  apiKey: string;
  path: string;
  /** The last event's seq: its `id:` line ends a catch-up. */
  lastSeq: number;
  durationSec: number;
}

const job = JSON.parse(process.argv[2]) as Job;

async function catchUp(): Promise<void> {
  const aborted = new AbortController();
  const res = await fetch(job.url + job.path, {
    headers: { authorization: `Bearer ${job.apiKey}` },
    signal: aborted.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`GET ${job.path}: ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const end = `id: ${job.lastSeq}\n`;
  let tail = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`GET ${job.path}: the stream ended before seq ${job.lastSeq}`);
      const text = tail + decoder.decode(value, { stream: true });
      if (text.includes(end)) return;
      tail = text.slice(-end.length);
    }
  } finally {
    aborted.abort();
  }
}

async function main(): Promise<void> {
  const times: number[] = [];
  const stopAt = performance.now() + job.durationSec * 1000;
  while (performance.now() < stopAt) {
    const t = performance.now();
    await catchUp();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return new Promise((resolve) =>
    process.send!({ total: times.length, p50: times[times.length >> 1] ?? 0 }, () => resolve()),
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => process.send!({ error: String(e) }, () => process.exit(1)),
);
