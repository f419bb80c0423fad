import { Client } from 'pg';
import { PostgresEventStore } from '@app/event-store';
import { LoadResult, runLoad } from './http';
import { seedStore } from './seed';
import { Server, startServer } from './stack';
import { median } from './util';

/** One load run: which instances served, commands/s over all of them, each instance's CPU. */
export interface ScaleRun {
  serving: number;
  commandsPerSec: number;
  /** Server CPU (both instances) per command. */
  cpuMicrosPerCommand: number;
  /** Per instance: CPU µs per second of the run, and the commands it served. */
  instances: Array<{ cpuMicrosPerSec: number; commands: number }>;
  p99Ms: number;
  non2xx: number;
}

export interface ScaleFigures {
  connections: number;
  durationSec: number;
  rounds: ScaleRound[];
  /** Two instances' commands/s over one's, within each round: median and min–max. */
  ratio: number;
  ratioSpread: [number, number];
  one: { commandsPerSec: number; cpuMicrosPerCommand: number };
  two: { commandsPerSec: number; cpuMicrosPerCommand: number };
  /**
   * With one instance serving, the other's CPU µs per second when it is not the read side's owner (it
   * only follows the log), and the serving one's (medians, min–max over those rounds).
   */
  idleCpuMicrosPerSec: number;
  idleSpread: [number, number];
  servingCpuMicrosPerSec: number;
  /** idle / serving CPU per second (median over those rounds). */
  idleShare: number;
  /** The same when the instance serving nothing owns the read side: it folds the projections and the outbox for both. */
  ownerIdle?: { cpuMicrosPerSec: number; share: number; rounds: number };
}

export interface ScaleRound {
  one: ScaleRun;
  two: ScaleRun;
  ratio: number;
  /** In the one-instance run: the CPU µs per second of the instance serving nothing, and of the serving one. */
  idleCpuMicrosPerSec: number;
  servingCpuMicrosPerSec: number;
  /** Whether the instance serving nothing owned the read side then. */
  idleOwnsReadSide: boolean;
}

interface ScaleOptions {
  connections: number;
  durationSec: number;
  rounds: number;
  /** Fights per connection (the exchange mix needs one free fight per connection at least). */
  fightsPerConnection: number;
  log?: (s: string) => void;
}

/**
 * `fights` fresh fights for each load run (a run leaves fights at unknown steps): one set per
 * instance per run, the exchange mix's fights at step 0 of a round.
 */
function splitFights(all: string[], per: number): () => string[] {
  let next = 0;
  return () => {
    const out = all.slice(next, next + per);
    next += per;
    if (out.length < per) throw new Error('pg-scale: not enough seeded fights');
    return out;
  };
}

/** The exchange mix on `serving` of the instances, the connections split evenly, all at once. */
async function loadRun(
  instances: Server[],
  serving: Server[],
  apiKey: string,
  take: () => string[],
  opts: ScaleOptions,
): Promise<ScaleRun> {
  const connections = opts.connections / serving.length;
  const fights = serving.map(() => take().slice(0, connections * opts.fightsPerConnection));
  const before = await Promise.all(instances.map((i) => i.cpu()));
  const t0 = performance.now();
  const loads: LoadResult[] = await Promise.all(
    serving.map((s, k) =>
      runLoad({
        url: s.url,
        apiKey,
        connections,
        durationSec: opts.durationSec,
        mode: 'commands',
        fights: fights[k],
      }),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  const after = await Promise.all(instances.map((i) => i.cpu()));
  const commands = loads.reduce((n, l) => n + l.commands, 0);
  const cpu = after.reduce((n, a, i) => n + a.micros - before[i].micros, 0);
  return {
    serving: serving.length,
    commandsPerSec: loads.reduce((n, l) => n + l.commands / l.durationSec, 0),
    cpuMicrosPerCommand: cpu / Math.max(1, commands),
    instances: instances.map((inst, i) => ({
      cpuMicrosPerSec: (after[i].micros - before[i].micros) / seconds,
      commands: loads[serving.indexOf(inst)]?.commands ?? 0,
    })),
    p99Ms: Math.max(...loads.map((l) => l.latency.p99)),
    non2xx: loads.reduce((n, l) => n + l.non2xx, 0),
  };
}

const spread = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
  await c.end();
}

/** Seeds the schema, starts two instances on it; the caller closes them. */
async function setUp(url: string, schema: string, dir: string, fights: number, log?: (s: string) => void) {
  const store = new PostgresEventStore({ connectionString: url, schema });
  await store.start();
  const seeded = await seedStore(store, { fights, play: true });
  await store.close();
  log?.(`  pg-scale: ${fights} fights seeded in ${(seeded.seedMs / 1000).toFixed(1)} s`);
  const instances: Server[] = [];
  for (const name of ['a', 'b'])
    instances.push(
      await startServer('service', `${dir}/pg-scale-${name}`, {
        eventStoreUrl: url,
        eventStoreSchema: schema,
      }),
    );
  return { seeded, instances };
}

/**
 * Scale-out on PostgreSQL: two API instances on one schema against one, at the same total load
 * (autocannon, the exchange mix, `connections` in all: split across the two, or all on one), the
 * runs alternating within each round. While one instance serves, the other's CPU is what an idle
 * instance costs (the log follower, the read side if it runs there). Each instance and each load
 * generator is a process of its own.
 */
export async function benchPgScale(url: string, dir: string, opts: ScaleOptions): Promise<ScaleFigures> {
  const schema = `bench_scale_${process.pid}_${Date.now().toString(36)}`;
  const perRun = opts.connections * opts.fightsPerConnection;
  // Per round: one run on one instance, one on two (perRun fights each), plus a warm-up of each kind.
  const { seeded, instances } = await setUp(url, schema, dir, perRun * 2 * (opts.rounds + 1), opts.log);
  try {
    const take = splitFights(seeded.fightIds, perRun / 2);
    const takeRun = () => [...take(), ...take()];
    const warm = { ...opts, durationSec: 2 };
    await loadRun(instances, instances, seeded.apiKey, take, warm);
    await loadRun(instances, [instances[0]], seeded.apiKey, takeRun, warm);
    const rounds: ScaleFigures['rounds'] = [];
    for (let r = 0; r < opts.rounds; r++) {
      // The lone server alternates, so an instance that does more in the background (the read side) serves as often.
      const lone = instances[r % 2];
      const runOne = () => loadRun(instances, [lone], seeded.apiKey, takeRun, opts);
      const runTwo = () => loadRun(instances, instances, seeded.apiKey, take, opts);
      const one = r % 2 === 0 ? await runOne() : undefined;
      const two = await runTwo();
      const oneRun = one ?? (await runOne());
      const at = instances.indexOf(lone);
      const idle = oneRun.instances[1 - at].cpuMicrosPerSec;
      const serving = oneRun.instances[at].cpuMicrosPerSec;
      const { owned } = await instances[1 - at].ask<{ owned: boolean }>('owner', 'owner');
      rounds.push({
        idleOwnsReadSide: owned,
        one: oneRun,
        two,
        ratio: two.commandsPerSec / oneRun.commandsPerSec,
        idleCpuMicrosPerSec: idle,
        servingCpuMicrosPerSec: serving,
      });
      opts.log?.(
        `  round ${r + 1}: one ${oneRun.commandsPerSec.toFixed(0)} commands/s, two ${two.commandsPerSec.toFixed(0)}/s; idle instance${owned ? ' (read-side owner)' : ''} ${(idle / 1000).toFixed(1)} ms CPU/s, serving ${(serving / 1000).toFixed(0)} ms/s`,
      );
    }
    return summarise(rounds, opts);
  } finally {
    for (const i of instances) await i.close();
    await dropSchema(url, schema);
  }
}

function summarise(rounds: ScaleRound[], opts: ScaleOptions): ScaleFigures {
  const of = (f: (r: ScaleRound) => number) => rounds.map(f);
  const owners = rounds.filter((r) => r.idleOwnsReadSide);
  // Every round when no instance owned the read side (it cannot happen on PostgreSQL, but the figure stays defined).
  const followers = owners.length === rounds.length ? rounds : rounds.filter((r) => !r.idleOwnsReadSide);
  return {
    connections: opts.connections,
    durationSec: opts.durationSec,
    rounds,
    ratio: median(of((r) => r.ratio)),
    ratioSpread: spread(of((r) => r.ratio)),
    one: {
      commandsPerSec: median(of((r) => r.one.commandsPerSec)),
      cpuMicrosPerCommand: median(of((r) => r.one.cpuMicrosPerCommand)),
    },
    two: {
      commandsPerSec: median(of((r) => r.two.commandsPerSec)),
      cpuMicrosPerCommand: median(of((r) => r.two.cpuMicrosPerCommand)),
    },
    // The follower's cost is what an instance serving nothing must keep near zero; the owner's is the read side's.
    idleCpuMicrosPerSec: median(followers.map((r) => r.idleCpuMicrosPerSec)),
    idleSpread: spread(followers.map((r) => r.idleCpuMicrosPerSec)),
    servingCpuMicrosPerSec: median(followers.map((r) => r.servingCpuMicrosPerSec)),
    idleShare: median(followers.map((r) => r.idleCpuMicrosPerSec / r.servingCpuMicrosPerSec)),
    ...(owners.length > 0 && {
      ownerIdle: {
        cpuMicrosPerSec: median(owners.map((r) => r.idleCpuMicrosPerSec)),
        share: median(owners.map((r) => r.idleCpuMicrosPerSec / r.servingCpuMicrosPerSec)),
        rounds: owners.length,
      },
    }),
  };
}
