import { eventHash, GENESIS_HASH } from '@app/fight-log';
import {
  buildFightLog,
  CLAIMS,
  FightLog,
  LogEntry,
  readVerifyOptions,
  verifyFightLog,
  VerifyOptionError,
} from '@app/audit';
import { narateer } from '@app/rules';
import { attack, duel, fighter, FightRecorder } from './fight-recorder';

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** Changes one byte of the first string, number or boolean leaf of `data`. */
function tweak(value: unknown): unknown {
  if (typeof value === 'string') return value.slice(0, -1) + (value.endsWith('x') ? 'y' : 'x');
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  return undefined;
}
function tweakFirstLeaf(node: Record<string, unknown> | unknown[]): boolean {
  for (const key of Object.keys(node).sort()) {
    const v = (node as Record<string, unknown>)[key];
    const changed = tweak(v);
    if (changed !== undefined) {
      (node as Record<string, unknown>)[key] = changed;
      return true;
    }
    if (typeof v === 'object' && v !== null && tweakFirstLeaf(v as Record<string, unknown>)) return true;
  }
  return false;
}

/** What a forger does after editing entries: renumber, recompute every hash, rewrite the header. */
function forge(log: FightLog, entries: LogEntry[]): FightLog {
  let previous = GENESIS_HASH;
  const rechained = entries.map((e, i) => {
    const next = { ...e, seq: i + 1 };
    previous = eventHash(previous, next);
    return { ...next, hash: previous };
  });
  try {
    return buildFightLog(rechained);
  } catch {
    return {
      ...log,
      entries: rechained,
      events: rechained.length,
      headHash: previous,
      view: { ...log.view, headHash: previous },
    };
  }
}

describe('verifyFightLog: the audit of an exported log', () => {
  const fair = clone(duel('fair').log());
  const manual = clone(duel('manual').log());

  it.each([
    ['fair dice, seed revealed', fair],
    ['manual dice', manual],
  ])('a genuine log verifies: %s', (_name, log) => {
    const report = verifyFightLog(log);
    expect(report).toMatchObject({ ok: true, fightId: 'fight-1', events: log.entries.length });
    expect(Object.values(report.checks).map((c) => c.status)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'skipped',
    ]);
    expect(report.firstDivergence).toBeUndefined();
    expect(log.entries.some((e) => e.type === 'ExchangeResolved')).toBe(true);
  });

  it('a fair fight not ended yet: dice and decisions are skipped (seed unrevealed), the rest holds', () => {
    const f = duel('fair', false);
    const report = verifyFightLog(clone(f.log()));
    expect(report.ok).toBe(true);
    expect(report.checks.decisions).toMatchObject({
      status: 'skipped',
      detail: expect.stringContaining('not revealed'),
    });
    expect(report.checks.chain.status).toBe('ok');
    expect(report.checks.view.status).toBe('ok');
    expect(verifyFightLog(clone(f.log()), { seed: f.seed }).checks.decisions.status).toBe('ok');
  });

  it.each([
    ['fair', fair],
    ['manual', manual],
  ])('changing one byte of any event data fails naming that seq (%s)', (_name, log) => {
    for (let i = 0; i < log.entries.length; i++) {
      const naive = clone(log);
      expect(tweakFirstLeaf(naive.entries[i].data)).toBe(true);
      expect(verifyFightLog(naive)).toMatchObject({
        ok: false,
        checks: { chain: { status: 'failed' } },
        firstDivergence: { seq: i + 1, check: 'chain' },
      });
      // A forger who recomputes the chain and header is caught by the rules or the seed.
      const forged = forge(log, naive.entries);
      const report = verifyFightLog(forged);
      expect(report.checks.chain.status).toBe('ok');
      expect(report.ok).toBe(false);
      expect(report.firstDivergence?.seq).toBe(i + 1);
    }
  });

  it('a log that verified, then has a recorded command changed in place, fails the next verification at that command', () => {
    const log = clone(fair);
    expect(verifyFightLog(log).checks.decisions.status).toBe('ok');
    const at = log.entries.findIndex((e) => e.command?.type === 'DeclareExchange');
    log.entries[at].command!.boost = 2;
    expect(verifyFightLog(log)).toMatchObject({
      ok: false,
      checks: { decisions: { status: 'failed' } },
      firstDivergence: { seq: at + 1, check: 'decisions' },
    });
  });

  it('deleting any event fails naming its seq', () => {
    for (let i = 0; i < fair.entries.length; i++) {
      const log = clone(fair);
      log.entries.splice(i, 1);
      expect(verifyFightLog(log)).toMatchObject({ ok: false, firstDivergence: { seq: i + 1 } });
    }
  });

  it('deleting one event of a command and re-chaining is caught by the decisions check', () => {
    const i = fair.entries.findIndex((e) => e.type === 'DiceRefreshed');
    const entries = clone(fair.entries);
    entries.splice(i, 1);
    expect(verifyFightLog(forge(fair, entries))).toMatchObject({
      ok: false,
      checks: { chain: { status: 'ok' }, decisions: { status: 'failed' } },
      firstDivergence: { seq: i + 1, check: 'decisions' },
    });
  });

  it('reordering two events fails naming the first of them, re-chained or not', () => {
    for (const [i, j] of [
      [2, 3],
      [4, 9],
      [1, fair.entries.length - 1],
    ]) {
      const log = clone(fair);
      [log.entries[i], log.entries[j]] = [log.entries[j], log.entries[i]];
      expect(verifyFightLog(log).firstDivergence?.seq).toBe(i + 1);
      const forged = verifyFightLog(forge(fair, log.entries));
      expect(forged.ok).toBe(false);
      expect(forged.firstDivergence?.seq).toBe(i + 1);
    }
  });

  it('one die face altered with the chain recomputed: the decisions check names the event', () => {
    const i = fair.entries.findIndex((e) => e.type === 'ExchangeResolved');
    const entries = clone(fair.entries);
    const attacker = entries[i].data.attacker as { faces: number[]; roll: { faces: number[] } };
    const face = attacker.roll.faces[0] === 6 ? 5 : attacker.roll.faces[0] + 1;
    attacker.roll.faces[0] = face;
    attacker.faces[0] = face;
    const report = verifyFightLog(forge(fair, entries));
    expect(report.checks).toMatchObject({
      chain: { status: 'ok' },
      sequence: { status: 'ok' },
      seed: { status: 'ok' },
      decisions: { status: 'failed' },
    });
    expect(report.firstDivergence).toMatchObject({
      seq: i + 1,
      check: 'decisions',
      message: expect.stringContaining('attacker'),
    });
  });

  it('a manual die face altered in the event but not in the command is caught', () => {
    const i = manual.entries.findIndex((e) => e.type === 'ExchangeResolved');
    const entries = clone(manual.entries);
    const attacker = entries[i].data.attacker as { faces: number[]; roll: { faces: number[] } };
    attacker.roll.faces[0] = attacker.faces[0] = 1;
    expect(verifyFightLog(forge(manual, entries)).firstDivergence).toMatchObject({
      seq: i + 1,
      check: 'decisions',
    });
  });

  it('a wrong seed fails the seed check at FightEnded; the dice cannot be recomputed', () => {
    const entries = clone(fair.entries);
    const end = entries.length - 1;
    entries[end].data.seed = 'e'.repeat(64);
    const report = verifyFightLog(forge(fair, entries));
    expect(report.checks.seed.status).toBe('failed');
    expect(report.checks.decisions.status).toBe('skipped');
    expect(report.firstDivergence).toMatchObject({ seq: end + 1, check: 'seed' });
  });

  it('drawsUsed that does not match the dice drawn is caught', () => {
    const entries = clone(fair.entries);
    const i = entries.findIndex((e) => e.type === 'ExchangeDeclared');
    for (const e of entries.slice(i)) e.drawsUsed += 1;
    expect(verifyFightLog(forge(fair, entries)).firstDivergence).toMatchObject({
      seq: i + 1,
      check: 'decisions',
      message: expect.stringContaining('draws'),
    });
  });

  it('a header that hides the last events or lies about the head fails the chain check', () => {
    expect(verifyFightLog({ ...clone(fair), events: 3 }).firstDivergence).toMatchObject({
      seq: 4,
      check: 'chain',
    });
    expect(verifyFightLog({ ...clone(fair), headHash: 'ab' }).checks.chain.status).toBe('failed');
    expect(verifyFightLog(clone(fair), { headHash: 'ab' }).checks.head.status).toBe('failed');
    expect(
      verifyFightLog({ ...clone(fair), view: { ...fair.view, round: 9 } }).firstDivergence,
    ).toMatchObject({ check: 'view', message: expect.stringContaining('round') });
  });

  describe('a log exported before its system’s view changed', () => {
    const version = narateer.viewVersion;
    /** The genuine log with the view an earlier build showed: one field gone, one this build lacks. */
    const earlier = (viewVersion?: number): FightLog => {
      const { viewVersion: _today, ...log } = clone(fair);
      const { round: _round, ...view } = log.view;
      return { ...log, ...(viewVersion !== undefined && { viewVersion }), view: { ...view, oldField: 1 } };
    };
    const today = verifyFightLog(clone(fair));

    it.each([
      [
        'names no view version',
        undefined,
        'the log names no view version (it was exported before views were versioned)',
      ],
      ['names another view version', version + 1, `made by narateer view version ${version + 1}`],
    ])(
      'a genuine log whose header %s verifies: view skipped, viewMatches not proven, every other claim as before',
      (_what, viewVersion, says) => {
        expect(earlier(viewVersion).viewVersion).toBe(viewVersion);
        const report = verifyFightLog(earlier(viewVersion));
        const detail = `${says}; this verifier shows narateer view version ${version}, so the view is not compared. It is derived from the events, which chain, sequence and decisions verify`;
        expect(report.checks.view).toEqual({ status: 'skipped', detail: expect.stringContaining(detail) });
        expect(report).toMatchObject({ ok: true, complete: true });
        expect(report.firstDivergence).toBeUndefined();
        expect(report.proven).toEqual(today.proven.filter((c) => c !== 'viewMatches'));
        expect(report.notProven).toEqual([
          { claim: 'viewMatches', reason: `view was skipped: ${report.checks.view.detail}` },
          ...today.notProven,
        ]);
        const { view: _view, ...others } = report.checks;
        const { view: _ok, ...before } = today.checks;
        expect(others).toEqual(before);
      },
    );

    it('the same view under this build’s version fails the view check, as any altered view does', () => {
      const report = verifyFightLog(earlier(version));
      expect(report).toMatchObject({
        ok: false,
        checks: { view: { status: 'failed', seq: fair.entries.length } },
        firstDivergence: {
          seq: fair.entries.length,
          check: 'view',
          message: expect.stringContaining('differs'),
        },
      });
      expect(report.notProven.map((n) => n.claim)).toContain('viewMatches');
    });

    it('a view of another version is not compared, but its events are still folded: one its rules cannot fold fails', () => {
      const unended = clone(duel('fair', false).log());
      const at = unended.entries.findIndex((e) => e.type === 'InitiativeRolled');
      const entries = clone(unended.entries);
      entries[at].data.rolls = 7;
      const { viewVersion: _v, ...forged } = forge(unended, entries);
      const report = verifyFightLog(forged);
      expect(report.checks.decisions.status).toBe('skipped');
      expect(report).toMatchObject({
        ok: false,
        checks: { view: { status: 'failed', seq: at + 1 } },
        firstDivergence: { seq: at + 1, check: 'view' },
      });
    });
  });

  describe('a complete fight told from a prefix', () => {
    const last = fair.entries[fair.entries.length - 1];
    /** The log cut after event k with its header made to match, as a forger or a careless export would. */
    const prefix = (k: number) => buildFightLog(clone(fair.entries.slice(0, k)));
    const notProven = (report: ReturnType<typeof verifyFightLog>) => report.notProven.map((n) => n.claim);

    it('a complete log with its expected head proves every claim', () => {
      const report = verifyFightLog(clone(fair), { headHash: last.hash, events: fair.entries.length });
      expect(report).toMatchObject({
        ok: true,
        complete: true,
        proven: [...CLAIMS],
        notProven: [],
        checks: { head: { status: 'ok' } },
      });
    });

    it('a complete log alone is complete, but says nothing ties it to an expected head', () => {
      const report = verifyFightLog(clone(fair));
      expect(report).toMatchObject({ ok: true, complete: true });
      expect(report.proven).toEqual([
        'chainIntact',
        'seedVerified',
        'decisionsVerified',
        'viewMatches',
        'complete',
      ]);
      expect(report.notProven).toEqual([
        { claim: 'headMatches', reason: expect.stringContaining('no expected head hash') },
        { claim: 'eventCountMatches', reason: expect.stringContaining('no expected event count') },
      ]);
    });

    it('every prefix with its header rebuilt still verifies, but is not complete', () => {
      for (let k = 1; k < fair.entries.length; k++) {
        const report = verifyFightLog(prefix(k));
        expect(report).toMatchObject({ ok: true, complete: false, events: k });
        expect(report.proven).toContain('chainIntact');
        expect(report.notProven).toContainEqual({
          claim: 'complete',
          reason: expect.stringContaining('does not end with FightEnded'),
        });
      }
    });

    it('a prefix fails against the expected head hash or event count, naming the first missing event', () => {
      for (const k of [1, 5, fair.entries.length - 1]) {
        const byHash = verifyFightLog(prefix(k), { headHash: last.hash });
        expect(byHash).toMatchObject({
          ok: false,
          complete: false,
          checks: { chain: { status: 'ok' }, head: { status: 'failed' } },
          firstDivergence: { seq: k + 1, check: 'head', message: expect.stringContaining('does not reach') },
        });
        expect(notProven(byHash)).toEqual(expect.arrayContaining(['complete', 'headMatches']));
        const byCount = verifyFightLog(prefix(k), { events: fair.entries.length });
        expect(byCount).toMatchObject({
          ok: false,
          firstDivergence: { seq: k + 1, check: 'head', message: expect.stringContaining('stops early') },
        });
        expect(notProven(byCount)).toContain('eventCountMatches');
      }
    });

    it('a wrong expected head fails the complete log: another hash, or an earlier event of it', () => {
      const other = verifyFightLog(clone(fair), { headHash: 'f'.repeat(64) });
      expect(other).toMatchObject({
        ok: false,
        complete: true,
        checks: { head: { status: 'failed' } },
        firstDivergence: { seq: fair.entries.length + 1, check: 'head' },
      });
      expect(other.proven).not.toContain('headMatches');
      expect(other.notProven).toContainEqual({
        claim: 'headMatches',
        reason: expect.stringContaining(last.hash),
      });
      const earlier = verifyFightLog(clone(fair), { headHash: fair.entries[4].hash });
      expect(earlier).toMatchObject({
        ok: false,
        firstDivergence: { seq: 6, check: 'head', message: expect.stringContaining('seq 5') },
      });
      expect(verifyFightLog(clone(fair), { events: 3 })).toMatchObject({
        ok: false,
        firstDivergence: { seq: 4, check: 'head', message: expect.stringContaining('past') },
      });
    });

    it('a prefix given a forged FightEnded is not complete: only the service held the seed it must reveal', () => {
      const cut = manual.entries.findIndex((e) => e.type === 'ExchangeResolved');
      const end = clone(manual.entries[manual.entries.length - 1]);
      end.data.seed = 'e'.repeat(64);
      end.command = { type: 'EndFight', reason: 'time' };
      const forged = forge(manual, [
        ...clone(manual.entries.slice(0, cut)),
        { ...end, commandId: 'forged-end', data: { ...end.data, reason: 'time', winnerSide: undefined } },
      ]);
      const report = verifyFightLog(forged);
      expect(report.checks.seed.status).toBe('failed');
      expect(report.complete).toBe(false);
      expect(report.notProven).toContainEqual({
        claim: 'complete',
        reason: expect.stringContaining('seedVerified'),
      });
    });

    it('a fight not ended yet proves its chain and view, not its dice, and is not complete', () => {
      const report = verifyFightLog(clone(duel('fair', false).log()));
      expect(report).toMatchObject({ ok: true, complete: false, proven: ['chainIntact', 'viewMatches'] });
      expect(report.notProven.find((n) => n.claim === 'decisionsVerified')?.reason).toMatch(
        /skipped: .*not revealed/,
      );
    });
  });

  it('readVerifyOptions takes a head hash and a count, from strings or numbers, and names the bad field', () => {
    const hash = 'A'.repeat(64);
    expect(readVerifyOptions({ headHash: hash, events: '12' })).toEqual({
      headHash: 'a'.repeat(64),
      events: 12,
    });
    expect(readVerifyOptions({ events: 3 })).toEqual({ events: 3 });
    expect(readVerifyOptions({})).toEqual({});
    const bad: [Record<string, unknown>, string][] = [
      [{ headHash: 'ab' }, 'headHash'],
      [{ headHash: ['a'.repeat(64)] }, 'headHash'],
      [{ headHash: 'g'.repeat(64) }, 'headHash'],
      [{ events: '0' }, 'events'],
      [{ events: '1.5' }, 'events'],
      [{ events: '12abc' }, 'events'],
      [{ events: -1 }, 'events'],
      [{ events: 2 ** 60 }, 'events'],
      [{ events: '' }, 'events'],
      [{ headhash: hash }, 'headhash'],
    ];
    for (const [raw, field] of bad) {
      let error: unknown;
      try {
        readVerifyOptions(raw);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(VerifyOptionError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', field });
    }
  });

  it('hostile input never throws and is reported', () => {
    const hostile: unknown[] = [
      null,
      42,
      {},
      { ...clone(fair), entries: 'nope' },
      { ...clone(fair), entries: [null, 1, 'x'] },
      { ...clone(fair), entries: [{ ...fair.entries[0], data: { system: 'narateer', dice: 5 } }] },
      { ...clone(fair), entries: fair.entries.map((e, i) => (i === 3 ? { ...e, command: undefined } : e)) },
      { ...clone(fair), entries: [...fair.entries.slice(0, 5), { ...fair.entries[5], seq: 'six' }] },
      forge(fair, [
        ...clone(fair.entries.slice(0, 4)),
        {
          ...fair.entries[4],
          type: 'ActionsUndone',
          data: { count: 1, undone: [{ commandId: 'x', fromSeq: 1, toSeq: 1e15 }] },
        },
      ]),
      forge(fair, [
        ...clone(fair.entries.slice(0, 4)),
        { ...fair.entries[4], command: { type: 'UndoCommands', count: 1e9 } },
      ]),
    ];
    for (const log of hostile) {
      const report = verifyFightLog(log as FightLog);
      expect(report.ok).toBe(false);
    }
  });

  it('times the verification of a 1,000-command fight', () => {
    const f = new FightRecorder({ mode: 'fair' });
    f.start({ combatants: [fighter('a', 3), fighter('b', 2), fighter('c', 2)] });
    f.run({ type: 'RollInitiative', tieBreak: ['a', 'b', 'c'] });
    if (f.state.pending) f.run({ type: 'SetInitiative', order: ['a', 'b', 'c'] });
    let commands = f.entries.filter((e) => e.command).length;
    const run = (c: Parameters<FightRecorder['run']>[0]) => (commands += f.run(c).length > 0 ? 1 : 0);
    while (commands < 998) {
      run({ type: 'StartRound' });
      while (f.state.roundOpen && commands < 998) {
        run({ type: 'StartActivation' });
        const me = f.state.activeId!;
        const foe = f.state.order.find(
          (id) => id !== me && (f.state.combatants[id] as unknown as { vitality: number }).vitality > 0,
        );
        const ready = (f.state.combatants[me] as unknown as { ad: { ready: number } }).ad.ready;
        if (foe && ready > 0 && commands % 3 === 0)
          run(attack(me, foe, { boost: 0, response: { response: 'fullGuard', boost: 0 } }));
        else run({ type: 'AddNote', text: `note ${commands}` });
        if (commands % 50 === 0) run({ type: 'UndoCommands', count: 1 });
        run({ type: 'EndActivation' });
      }
      if (f.state.roundOpen) run({ type: 'EndRound' });
    }
    run({ type: 'EndFight' });
    const log = f.log();
    const t0 = performance.now();
    const report = verifyFightLog(log);
    const ms = performance.now() - t0;
    console.log(
      `verified ${commands} commands / ${log.entries.length} events / ${f.draws} draws in ${ms.toFixed(0)} ms`,
    );
    expect(report.ok).toBe(true);
  });
});
