import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppError, Principal } from '@app/fights';
import { LabInputError, LabPlan, LabResult, labSystem, planLab, runLab } from '@app/lab';
import { StartLabRunInput } from './lab.dto';
import { LabRunModel } from './lab.models';

/** Runs held by this instance (docs/lab.md): at most this many at once, the newest finished ones kept. */
const MAX_RUNNING = 2;
const MAX_KEPT = 50;

interface LabRun {
  id: string;
  owner: string;
  plan: LabPlan;
  status: 'running' | 'done' | 'failed';
  done: number;
  total: number;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
  result: LabResult | null;
  abort: AbortController;
}

/** Combat Lab runs in the background (worker threads), held in memory per instance. */
@Injectable()
export class LabService implements OnApplicationShutdown {
  private readonly runs = new Map<string, LabRun>();
  private readonly logger = new Logger('Lab');

  start(p: Principal, input: StartLabRunInput): LabRunModel {
    const owner = ownerOf(p);
    const plan = checked(input);
    if ([...this.runs.values()].filter((r) => r.status === 'running').length >= MAX_RUNNING) {
      throw new AppError(
        429,
        'LAB_BUSY',
        `this instance already runs ${MAX_RUNNING} lab runs; try again when one finishes`,
      );
    }
    const run: LabRun = {
      id: randomUUID(),
      owner,
      plan,
      status: 'running',
      done: 0,
      total: plan.fights * plan.strategies.length ** 2,
      createdAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
      result: null,
      abort: new AbortController(),
    };
    this.runs.set(run.id, run);
    this.evict();
    runLab(plan, { signal: run.abort.signal, onProgress: ({ done }) => (run.done = done) }).then(
      (result) => Object.assign(run, { status: 'done', result, finishedAt: new Date().toISOString() }),
      (e: unknown) => {
        const reason = e instanceof Error ? e.message : String(e);
        // Stopped by the shutdown (onApplicationShutdown): no fault, and no error line in an orderly stop.
        const stopped = run.abort.signal.aborted;
        if (stopped) this.logger.log(`lab run ${run.id} stopped: ${reason}`);
        else this.logger.error(`lab run ${run.id} failed: ${reason}`);
        Object.assign(run, {
          status: 'failed',
          error: stopped ? `the run was stopped: ${reason}` : 'the run failed; it has been logged',
          finishedAt: new Date().toISOString(),
        });
      },
    );
    return view(run);
  }

  /** Another caller's run is reported as missing, not forbidden. */
  get(p: Principal, id: string): LabRunModel {
    const run = this.runs.get(id);
    if (!run || (p.kind !== 'admin' && run.owner !== ownerOf(p)))
      throw new AppError(404, 'LAB_RUN_NOT_FOUND', `no lab run ${id}`, 'id');
    return view(run);
  }

  onApplicationShutdown(): void {
    for (const run of this.runs.values()) run.abort.abort(new Error('the service is shutting down'));
  }

  private evict(): void {
    const finished = [...this.runs.values()].filter((r) => r.status !== 'running');
    for (const r of finished.slice(0, Math.max(0, this.runs.size - MAX_KEPT))) this.runs.delete(r.id);
  }
}

/** A tenant or the operator may run the lab (docs/lab.md); fight tokens may not. */
function ownerOf(p: Principal): string {
  if (p.kind === 'tenant') return `tenant:${p.tenantId}`;
  if (p.kind === 'admin') return 'admin';
  throw new AppError(
    403,
    'TENANT_ONLY',
    'the Combat Lab needs a tenant API key or the admin key',
    'authorization',
  );
}

/** Input and sheets are checked before the run starts: a field the lab cannot run with is a 422 naming it (its LAB_ code), as a sheet the rules refuse is. */
function checked(input: StartLabRunInput): LabPlan {
  try {
    const plan = planLab(input);
    labSystem(plan.system).prepare(plan.sheets, plan.seed, plan.roundCap);
    return plan;
  } catch (e) {
    if (e instanceof LabInputError) throw new AppError(422, e.code, e.message, e.field);
    throw e;
  }
}

function view(run: LabRun): LabRunModel {
  const { plan } = run;
  return {
    id: run.id,
    status: run.status,
    system: plan.system,
    fights: plan.fights,
    seed: plan.seed,
    strategies: plan.strategies,
    progress: { done: run.done, total: run.total },
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    error: run.error,
    result: run.result,
  };
}
