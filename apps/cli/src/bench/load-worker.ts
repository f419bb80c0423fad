import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { commandAt, isExchange } from './fight-script';

/**
 * Runs autocannon in a child process (the app keeps the parent's core). Not a worker thread:
 * autocannon skips aggregating its results when it is not on a main thread.
 */
interface Job {
  url: string;
  apiKey: string;
  connections: number;
  durationSec: number;
  /**
   * baseline: POST /bench/constant (the in-app constant route); commands: the Narateer exchange mix
   * over `fights`; addnote: an AddNote command to `fights` in turn; fixed: `method` `path` (`body`).
   */
  mode: 'baseline' | 'commands' | 'addnote' | 'fixed';
  fights: string[];
  method?: 'GET' | 'POST';
  path?: string;
  body?: string;
  /** A body too large for the job's argv (a whole fight log): read from this file. */
  bodyFile?: string;
}

const job = JSON.parse(process.argv[2]) as Job;

const reply = (m: unknown) => process.send!(m, () => process.exit(0));

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
type Autocannon = (
  opts: Record<string, unknown>,
  done: (err: unknown, result: AutocannonResult) => void,
) => unknown;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

/** autocannon resets a connection's context after each request, so fights live in a shared queue. */
interface RequestContext {
  current?: { id: string; step: number };
}

/** Fights not in flight, oldest first: one command in flight per fight, fights taken in turn. */
const free: Array<{ id: string; step: number }> = [];
let exchanges = 0;
let commands = 0;
let errors = 0;
for (const id of job.fights) free.push({ id, step: 0 });

const body = JSON.stringify({
  type: 'DeclareExchange',
  attackerId: 'mira',
  targetId: 'orin',
  kind: 'melee',
  weaponId: 'blade',
  boost: 0,
  response: { response: 'clash', boost: 0 },
});

let next = 0;
const note = JSON.stringify({ type: 'AddNote', text: 'The banner of the Grey Company is raised.' });

const requests: Array<Record<string, unknown>> =
  job.mode === 'baseline'
    ? [{ method: 'POST', path: '/bench/constant', body }]
    : job.mode === 'fixed'
      ? [
          {
            method: job.method ?? 'GET',
            path: job.path,
            ...(job.body !== undefined ? { body: job.body } : {}),
            ...(job.bodyFile !== undefined ? { body: readFileSync(job.bodyFile, 'utf8') } : {}),
          },
        ]
      : job.mode === 'addnote'
        ? [
            {
              method: 'POST',
              setupRequest: (req: Record<string, unknown>) => ({
                ...req,
                path: `/fights/${job.fights[next++ % job.fights.length]}/commands`,
                body: note,
              }),
              onResponse: (status: number, _body: string) => {
                if (status === 200) commands++;
                else if (errors++ < 3) console.error(`load: ${status} ${_body}`);
              },
            },
          ]
        : [
            {
              method: 'POST',
              setupRequest: (req: Record<string, unknown>, context: RequestContext) => {
                const f = free.shift();
                if (!f) throw new Error('no free fight: more connections than fights');
                context.current = f;
                return { ...req, path: `/fights/${f.id}/commands`, body: JSON.stringify(commandAt(f.step)) };
              },
              onResponse: (status: number, _body: string, context: RequestContext) => {
                const f = context.current;
                if (!f) return;
                context.current = undefined;
                if (status === 200) {
                  commands++;
                  if (isExchange(f.step)) exchanges++;
                  f.step++;
                } else if (errors++ < 3) console.error(`load: ${status} ${_body}`);
                free.push(f);
              },
            },
          ];

autocannon(
  {
    url: job.url,
    connections: job.connections,
    duration: job.durationSec,
    headers: {
      'content-type': 'application/json',
      ...(job.apiKey ? { authorization: `Bearer ${job.apiKey}` } : {}),
    },
    requests,
  },
  (err, result) => {
    if (err) reply({ error: err instanceof Error ? String(err) : inspect(err) });
    else
      reply({
        requestsPerSec: result.requests.average,
        total: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        latency: {
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          max: result.latency.max,
          mean: result.latency.average,
        },
        durationSec: result.duration,
        commands,
        exchanges,
      });
  },
);
