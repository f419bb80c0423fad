import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { tempDir } from './bench/service';
import { machine, round, versions } from './bench/util';
import {
  auditSection,
  BenchContext,
  BenchOptions,
  decideSection,
  httpSection,
  labSection,
  latencySection,
  memorySection,
  pgAppendSection,
  profileSection,
  projectionSection,
  Row,
  Section,
  sqliteAppendSection,
  webhooksSection,
} from './bench/sections';
import {
  bootSection,
  fanoutSection,
  logExportSection,
  pgScaleSection,
  serverMemorySection,
} from './bench/sections-scale';

export const BENCHMARKS = [
  'decide',
  'sqlite-append',
  'pg-append',
  'http',
  'profile',
  'boot',
  'latency',
  'projection',
  'fanout',
  'log-export',
  'audit',
  'memory',
  'server-memory',
  'pg-scale',
  'webhooks',
  'lab',
] as const;
type BenchName = (typeof BENCHMARKS)[number];

/** The sections in the order they run (the projection section reuses the latency section's store). */
const SECTIONS: Array<[BenchName, Section]> = [
  ['decide', decideSection],
  ['sqlite-append', sqliteAppendSection],
  ['pg-append', pgAppendSection],
  ['http', httpSection],
  ['profile', profileSection],
  ['boot', bootSection],
  ['pg-scale', pgScaleSection],
  ['fanout', fanoutSection],
  ['log-export', logExportSection],
  ['latency', latencySection],
  ['projection', projectionSection],
  ['audit', auditSection],
  ['memory', memorySection],
  ['server-memory', serverMemorySection],
  ['webhooks', webhooksSection],
  ['lab', labSection],
];

/** `bench`: every benchmark; prints a table and writes bench/results/latest.json. */
export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('run the benchmarks: print a table, write bench/results/latest.json')
    .option('--only <names>', `comma-separated subset of: ${BENCHMARKS.join(', ')}`)
    .option('--out <file>', 'where to write the JSON results', 'bench/results/latest.json')
    .option(
      '--profile-out <file>',
      "where to write the command path's CPU profile (markdown)",
      'bench/profile-command-path.md',
    )
    .option('--quick', 'shorter runs (for a smoke test; figures are noisier)')
    .option(
      '--pg-url <url>',
      'PostgreSQL for the PostgreSQL benchmarks (default: EVENT_STORE_PG_URL; skipped when unset)',
      process.env.EVENT_STORE_PG_URL,
    )
    .action(async (opts: BenchOptions) => {
      process.exitCode = await runBench(opts);
    });
}

function selection(only: string | undefined): Set<BenchName> {
  const selected = new Set<BenchName>(
    only ? (only.split(',').map((s) => s.trim()) as BenchName[]) : BENCHMARKS,
  );
  for (const name of selected)
    if (!BENCHMARKS.includes(name))
      throw new Error(`unknown benchmark ${name}; known: ${BENCHMARKS.join(', ')}`);
  return selected;
}

/** Runs one section; a failure becomes an error row and the run goes on. Returns whether it failed. */
async function runSection(ctx: BenchContext, name: BenchName, section: Section): Promise<boolean> {
  ctx.log(`${name}…`);
  const s = performance.now();
  let failed = false;
  try {
    await section(ctx);
  } catch (e) {
    failed = true;
    const message = e instanceof Error ? e.message : String(e);
    ctx.results[name] = { error: message };
    ctx.rows.push({
      benchmark: name,
      result: `error: ${message}`,
      baseline: '',
      ratio: '',
      target: '',
      status: 'error',
    });
  }
  ctx.log(`${name} done in ${((performance.now() - s) / 1000).toFixed(1)} s`);
  return failed;
}

export async function runBench(opts: BenchOptions): Promise<number> {
  const selected = selection(opts.only);
  const t0 = performance.now();
  const tmp = tempDir();
  const ctx: BenchContext = {
    opts,
    quick: !!opts.quick,
    dir: tmp.dir,
    started: new Date(),
    results: {},
    rows: [],
    notes: [],
    log: (s: string) => process.stderr.write(`bench: ${s}\n`),
  };
  let failed = 0;
  try {
    for (const [name, section] of SECTIONS)
      if (selected.has(name) && (await runSection(ctx, name, section))) failed++;
  } finally {
    tmp.remove();
  }
  const durationSec = (performance.now() - t0) / 1000;
  printTable(ctx.rows);
  writeResults(ctx, durationSec);
  return failed ? 1 : 0;
}

function writeResults(ctx: BenchContext, durationSec: number): void {
  const out = resolve(process.cwd(), ctx.opts.out);
  mkdirSync(dirname(out), { recursive: true });
  const doc = {
    date: ctx.started.toISOString(),
    durationSec: round(durationSec, 1),
    quick: ctx.quick,
    machine: machine(),
    versions: versions(),
    rows: ctx.rows,
    results: roundDeep(ctx.results),
    notes: ctx.notes,
  };
  writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
  console.log(`\nwritten ${out} (${durationSec.toFixed(0)} s)`);
}

function printTable(rows: Row[]): void {
  const cols: Array<keyof Row> = ['benchmark', 'result', 'baseline', 'ratio', 'target', 'status'];
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(width[i])).join(' | ')} |`;
  console.log(line(cols));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}

function roundDeep(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? v : round(v, 3);
  if (Array.isArray(v)) return v.map(roundDeep);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundDeep(x)]));
  return v;
}
