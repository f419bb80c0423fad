import { cpus, totalmem, hostname, platform, release, arch, loadavg } from 'node:os';
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const now = (): number => performance.timeOrigin + performance.now();

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Percentile of an unsorted sample (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** A sample of latencies (ms) as the bench reports them: median, p99 and the longest. */
/** The times (ms) of `count` sequential GETs of `path`, one client: each request's own cost, not a queue. */
export async function timedGets(url: string, apiKey: string, path: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = now();
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${apiKey}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    times.push(now() - t0);
  }
  return times;
}

/**
 * Runs `file` (a bench worker next to this one) in a process of its own with `job` as its argument,
 * and resolves with the one message it sends back; `{ error }` from it, or an exit without a message,
 * rejects (`what` names it).
 */
export function forkJob<T>(file: string, job: unknown, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, file), [JSON.stringify(job)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let done = false;
    child.once('message', (m: T & { error?: string }) => {
      done = true;
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    child.once('error', reject);
    child.once('exit', (code) => done || reject(new Error(`${what} exited with code ${code}`)));
  });
}

export function latencySpread(times: number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: Math.max(...times) };
}

/** A real `gc()` even when node was started without --expose-gc. */
export function forceGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function versionOf(pkg: string): string | undefined {
  try {
    return (
      JSON.parse(readFileSync(join(process.cwd(), 'node_modules', pkg, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  } catch {
    return undefined;
  }
}

export function machine(): Record<string, unknown> {
  const cpu = cpus();
  return {
    hostname: hostname(),
    platform: `${platform()} ${release()} ${arch()}`,
    cpuModel: cpu[0]?.model,
    cpus: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function versions(): Record<string, string | undefined> {
  return {
    node: process.versions.node,
    v8: process.versions.v8,
    sqlite: process.versions.sqlite,
    ...Object.fromEntries(
      [
        'better-sqlite3',
        'pg',
        '@nestjs/core',
        '@nestjs/platform-fastify',
        'fastify',
        '@nestjs/platform-express',
        '@apollo/server',
        'graphql-ws',
        '@noble/hashes',
        'autocannon',
        'typescript',
      ].map((p) => [p, versionOf(p)]),
    ),
  };
}

export const round = (n: number, digits = 2): number =>
  Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : n;

export function fmt(n: number | undefined, digits = 0): string {
  if (n === undefined || !Number.isFinite(n)) return '-';
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
