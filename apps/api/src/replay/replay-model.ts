import {
  CheckName,
  FightFolder,
  FightLog,
  LogEntry,
  LogFormatError,
  parseFightLog,
  readVerifyOptions,
  VerificationReport,
  verifyFightLog,
  VerifyOptionError,
} from '@app/audit';
import { facesForDraw, findSystem } from '@app/rules';

/**
 * What the replay page shows of a fight log, computed in the browser (verifier.browser.ts bundles this file
 * with libs/audit and libs/rules). The verdicts are the verifier's own: `openReplay` runs exactly what
 * `POST /audit/verify` runs (parseFightLog, readVerifyOptions, verifyFightLog) and only reads its report to
 * say, event by event, where the log holds and where it breaks. The views are the fight folded with its rule
 * system at each seq, undos honoured, as the service folds it.
 */

/** One die roll found in an event (C1: every die rolled is data in the event that used it). */
export interface ReplayRoll {
  /** Where in the event's data: `attacker.roll`, `rolls[1].roll`. */
  path: string;
  combatantId?: string;
  sides: number;
  faces: number[];
  /** The draw number (C5); absent for manual dice. */
  draw?: number;
  /** The faces draw `draw` gives from the revealed seed (C5), when it is known. */
  recomputed?: number[];
  /**
   * verified: the seed's draw gives these faces; mismatch: it gives others; committed: the seed is not
   * revealed yet (the faces are bound by the commitment in FightStarted); manual: faces entered at the table,
   * no draw to recompute; unchecked: nothing to recompute them from (see the seed check).
   */
  status: 'verified' | 'mismatch' | 'committed' | 'manual' | 'unchecked';
}

/**
 * verified: before any divergence, its command decided again gives exactly this event;
 * committed: before any divergence, the hash chain holds, but its dice wait for the seed;
 * unchecked: before any divergence, the decisions could not be re-run (see the decisions check);
 * diverges: the verifier's first divergence is here; after-break: past it, nothing about it is proven.
 */
export type EventVerdict = 'verified' | 'committed' | 'unchecked' | 'diverges' | 'after-break';

export interface ReplayEvent {
  seq: number;
  type: string;
  actor: string;
  at: string;
  commandId: string;
  /** The type of the command that appended it, on the first event of each command. */
  command?: string;
  hash: string;
  /** The hash chain at this event: it follows from the previous one, is where it breaks, or comes after that. */
  chain: 'ok' | 'broken' | 'after-break';
  verdict: EventVerdict;
  rolls: ReplayRoll[];
  data: Record<string, unknown>;
}

export interface ReplaySeed {
  mode: string;
  commitment: string;
  clientSeed: string;
  drawKey?: string;
  /** revealed: FightEnded's seed hashes to the commitment; not-revealed: the fight has not ended; mismatch: see the seed check. */
  status: 'revealed' | 'not-revealed' | 'mismatch';
  seed?: string;
  revealedAt?: number;
}

export interface Replay {
  ok: true;
  fightId: string;
  system: string;
  /** The report POST /audit/verify gives for the same text and expectations. */
  report: VerificationReport;
  seed: ReplaySeed;
  events: ReplayEvent[];
  /** views[i]: the fight's view after the event at seq i + 1 (`{ ...system.view(state), seq, headHash }`). */
  views: Record<string, unknown>[];
  /** Where folding stopped, when an event could not be folded (a tampered log): later seqs show the last view. */
  foldStopped?: { seq: number; message: string };
}

/**
 * What POST /audit/verify answers instead of a report, with its status: 400 for a bad expectation or a
 * log that cannot be read (not JSON, empty), 422 for a readable log whose fields break the log format.
 */
export interface ReplayRefusal {
  ok: false;
  status: 400 | 422;
  code: string;
  message: string;
  field?: string;
  line?: number;
}

/** The auditor's expectations, as the REST query carries them: `headHash`, `events`. */
export type Expected = Record<string, unknown>;

export function openReplay(text: string, expected: Expected = {}): Replay | ReplayRefusal {
  let options: ReturnType<typeof readVerifyOptions>;
  let log: FightLog;
  try {
    options = readVerifyOptions({ ...expected });
    log = parseFightLog(text);
  } catch (e) {
    if (e instanceof VerifyOptionError)
      return { ok: false, status: 400, code: e.code, message: e.message, field: e.field };
    if (e instanceof LogFormatError)
      return {
        ok: false,
        status: e.field !== undefined ? 422 : 400,
        code: e.code,
        message: e.message,
        ...(e.field !== undefined && { field: e.field }),
        ...(e.line !== undefined && { line: e.line }),
      };
    throw e;
  }
  const report = verifyFightLog(log, options);
  const seed = seedOf(log, report);
  const events = eventsOf(log, report, seed);
  const { views, stopped } = viewsOf(log);
  const replay: Replay = {
    ok: true,
    fightId: report.fightId,
    system: log.system,
    report,
    seed,
    events,
    views,
  };
  if (stopped) replay.foldStopped = stopped;
  return replay;
}

/**
 * The seq a failed check fails at (its `seq`), or undefined when it did not fail. A check that could not
 * run at all names no seq: it holds nowhere (0).
 */
function failedAt(report: VerificationReport, check: CheckName): number | undefined {
  const c = report.checks[check];
  if (c.status !== 'failed') return undefined;
  return c.seq ?? 0;
}

function seedOf(log: FightLog, report: VerificationReport): ReplaySeed {
  const started = (log.entries[0]?.data.dice ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const out: ReplaySeed = {
    mode: text(started.mode) || log.dice.mode,
    commitment: text(started.commitment),
    clientSeed: text(started.clientSeed),
    status: 'not-revealed',
  };
  if (typeof started.drawKey === 'string') out.drawKey = started.drawKey;
  const ended = log.entries.findIndex((e) => e.type === 'FightEnded');
  if (ended >= 0) {
    out.revealedAt = ended + 1;
    const s = log.entries[ended].data.seed;
    if (typeof s === 'string') out.seed = s;
    out.status = report.checks.seed.status === 'ok' && out.seed !== undefined ? 'revealed' : 'mismatch';
  }
  return out;
}

function eventsOf(log: FightLog, report: VerificationReport, seed: ReplaySeed): ReplayEvent[] {
  const breakAt = report.firstDivergence?.seq;
  const chainAt = failedAt(report, 'chain');
  const decisionsAt = failedAt(report, 'decisions');
  const decisions = report.checks.decisions.status;
  const key = seed.status === 'revealed' && seed.mode !== 'manual' ? seed.seed : undefined;
  return log.entries.map((e: LogEntry, i) => {
    const seq = i + 1;
    let verdict: EventVerdict;
    if (breakAt !== undefined && seq > breakAt) verdict = 'after-break';
    else if (breakAt === seq) verdict = 'diverges';
    else if (decisions === 'ok' || (decisionsAt !== undefined && seq < decisionsAt)) verdict = 'verified';
    else verdict = seed.status === 'not-revealed' && seed.mode !== 'manual' ? 'committed' : 'unchecked';
    const chain = chainAt === undefined || seq < chainAt ? 'ok' : seq === chainAt ? 'broken' : 'after-break';
    const event: ReplayEvent = {
      seq,
      type: e.type,
      actor: e.actor,
      at: e.at,
      commandId: e.commandId,
      hash: e.hash,
      chain,
      verdict,
      rolls: rollsOf(e, seed, key, log.fightId),
      data: e.data,
    };
    if (e.command && typeof e.command.type === 'string') event.command = e.command.type;
    return event;
  });
}

/** Every Roll (`{ sides, faces, draw? }`) in an event's data, recomputed from the seed when it is revealed. */
function rollsOf(e: LogEntry, seed: ReplaySeed, key: string | undefined, fightId: string): ReplayRoll[] {
  const out: ReplayRoll[] = [];
  const walk = (v: unknown, path: string, who: string | undefined, depth: number) => {
    if (depth > 12 || out.length >= 200) return;
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`, who, depth + 1));
    if (typeof v !== 'object' || v === null) return;
    const o = v as Record<string, unknown>;
    const id = typeof o.combatantId === 'string' ? o.combatantId : who;
    const faces = o.faces;
    if (
      typeof o.sides === 'number' &&
      Array.isArray(faces) &&
      faces.every((f): f is number => typeof f === 'number')
    ) {
      out.push(roll(path || '(data)', id, o.sides, faces, typeof o.draw === 'number' ? o.draw : undefined));
      return;
    }
    for (const k of Object.keys(o)) walk(o[k], path ? `${path}.${k}` : k, id, depth + 1);
  };
  const roll = (
    path: string,
    combatantId: string | undefined,
    sides: number,
    faces: number[],
    draw: number | undefined,
  ): ReplayRoll => {
    const r: ReplayRoll = { path, sides, faces, status: 'unchecked' };
    if (combatantId !== undefined) r.combatantId = combatantId;
    if (draw !== undefined) r.draw = draw;
    if (seed.mode === 'manual') r.status = 'manual';
    else if (seed.status === 'not-revealed') r.status = 'committed';
    else if (
      key !== undefined &&
      draw !== undefined &&
      Number.isSafeInteger(draw) &&
      draw >= 1 &&
      sides >= 2 &&
      sides <= 256 &&
      faces.length <= 1000
    ) {
      r.recomputed = facesForDraw(
        { seed: key, fightId, drawKey: seed.drawKey, clientSeed: seed.clientSeed },
        draw,
        faces.length,
        sides,
      );
      r.status = r.recomputed.every((f, i) => f === faces[i]) ? 'verified' : 'mismatch';
    }
    return r;
  };
  walk(e.data, '', undefined, 0);
  return out;
}

/** The view after each event, folded as the service folds (undos honoured); stops at an event that cannot be folded. */
function viewsOf(log: FightLog): {
  views: Record<string, unknown>[];
  stopped?: { seq: number; message: string };
} {
  const first = log.entries[0];
  const system = first?.type === 'FightStarted' ? findSystem(String(first.data.system)) : undefined;
  if (!system) return { views: [], stopped: { seq: 1, message: 'FightStarted names no known rule system' } };
  const folder = new FightFolder(system, first.fightId);
  const budget = 4 * log.entries.length + 1000;
  const views: Record<string, unknown>[] = [];
  for (const e of log.entries) {
    try {
      folder.apply(e);
      if (folder.evolveCalls > budget)
        return {
          views,
          stopped: {
            seq: e.seq,
            message: 'this undo re-folds more events than any undo the service appends',
          },
        };
      views.push(
        JSON.parse(JSON.stringify({ ...system.view(folder.state), seq: e.seq, headHash: e.hash })) as Record<
          string,
          unknown
        >,
      );
    } catch (err) {
      return {
        views,
        stopped: {
          seq: views.length + 1,
          message: `the fight cannot be folded at this event: ${err instanceof Error ? err.message : String(err)}`,
        },
      };
    }
  }
  return { views };
}
