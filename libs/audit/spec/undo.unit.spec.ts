import { narateer, RuleViolation } from '@app/rules';
import { foldFight, planUndo, verifyFightLog } from '@app/audit';
import { attack, duel, fighter, FightRecorder } from './fight-recorder';

function violation(run: () => unknown): RuleViolation {
  try {
    run();
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error('expected a RuleViolation');
}

/** A fair fight in round 1 with the first combatant's activation running. */
function midFight(): FightRecorder {
  const f = new FightRecorder({ mode: 'fair' });
  f.start({ combatants: [fighter('mira', 3), fighter('orin', 2)] });
  f.run({ type: 'RollInitiative', tieBreak: ['mira', 'orin'] });
  if (f.state.pending) f.run({ type: 'SetInitiative', order: ['mira', 'orin'] });
  f.run({ type: 'StartRound' });
  f.run({ type: 'StartActivation' });
  return f;
}

const foe = (f: FightRecorder) => f.state.order.find((id) => id !== f.state.activeId)!;

describe('UndoCommands (C8; draws are not given back, C5)', () => {
  it('undo restores the exact earlier state and view', () => {
    const f = midFight();
    const before = f.state;
    const viewBefore = narateer.view(before as never);
    f.run(attack(f.state.activeId!, foe(f), { response: { response: 'clash', boost: 0 } }));
    f.run({ type: 'AddNote', text: 'ouch' });
    expect(f.state).not.toEqual(before);
    const [undone] = f.run({ type: 'UndoCommands', count: 2 });
    expect(undone.type).toBe('ActionsUndone');
    expect(undone.data).toEqual({
      count: 2,
      undone: [
        expect.objectContaining({ commandId: 'cmd-5' }),
        expect.objectContaining({ commandId: 'cmd-6' }),
      ],
    });
    expect(f.state).toEqual(before);
    expect(narateer.view(f.state as never)).toEqual(viewBefore);
  });

  it('undo never gives a draw back: the next roll uses a new draw number, and the fight still verifies', () => {
    const f = midFight();
    const me = f.state.activeId!;
    const [declared] = f.run(attack(me, foe(f), { response: { response: 'clash', boost: 0 } }));
    const drawsAfterFirst = f.draws;
    const firstDraws = (
      f.entries.find((e) => e.type === 'ExchangeResolved')!.data.attacker as { roll: { draw: number } }
    ).roll.draw;
    expect(declared.drawsUsed).toBe(drawsAfterFirst);
    const [undo] = f.run({ type: 'UndoCommands', count: 1 });
    expect(undo.drawsUsed).toBe(drawsAfterFirst);
    f.run(attack(me, foe(f), { response: { response: 'clash', boost: 0 } }));
    const again = f.entries.filter((e) => e.type === 'ExchangeResolved')[1].data.attacker as {
      roll: { draw: number };
    };
    expect(again.roll.draw).toBe(drawsAfterFirst + 1);
    expect(again.roll.draw).toBeGreaterThan(firstDraws);
    f.run({ type: 'EndFight' });
    const report = verifyFightLog(JSON.parse(JSON.stringify(f.log())));
    expect(report).toMatchObject({
      ok: true,
      checks: { decisions: { status: 'ok' }, view: { status: 'ok' } },
    });
  });

  it('never StartFight, never an earlier undo, never what is already undone', () => {
    const f = midFight();
    f.run({ type: 'AddNote', text: 'a' });
    f.run({ type: 'AddNote', text: 'b' });
    f.run({ type: 'UndoCommands', count: 1 });
    expect(planUndo(f.entries, 1).undone.map((u) => u.commandId)).toEqual(['cmd-5']);
    f.run({ type: 'UndoCommands', count: 1 });
    const left = f.entries.filter((e) => e.command).length - 1 - 2 - 2; // minus StartFight, the undone notes, the undos
    expect(violation(() => planUndo(f.entries, left + 1))).toMatchObject({
      code: 'UNDO_COUNT_INVALID',
      field: 'count',
    });
    f.run({ type: 'UndoCommands', count: left });
    expect(violation(() => planUndo(f.entries, 1))).toMatchObject({
      code: 'UNDO_NOTHING_TO_UNDO',
      field: 'count',
    });
    expect(f.state).toEqual(
      foldFight(
        narateer,
        'fight-1',
        f.entries.filter((e) => e.commandId === 'cmd-1'),
      ),
    );
  });

  it('refuses counts that are not whole numbers from 1', () => {
    const f = midFight();
    for (const count of [0, -1, 1.5, '1', undefined])
      expect(violation(() => planUndo(f.entries, count))).toMatchObject({
        code: 'UNDO_COUNT_INVALID',
        field: 'count',
      });
  });

  it('plans from bare { commandId, seq, type } too', () => {
    const events = [
      { commandId: 's', seq: 1, type: 'FightStarted' },
      { commandId: 's', seq: 2, type: 'CombatantJoined' },
      { commandId: 'a', seq: 3, type: 'GmNoteAdded' },
      { commandId: 'b', seq: 4, type: 'ActivationStarted' },
      { commandId: 'b', seq: 5, type: 'DiceRefreshed' },
    ];
    expect(planUndo(events, 2)).toEqual({
      count: 2,
      undone: [
        { commandId: 'a', fromSeq: 3, toSeq: 3 },
        { commandId: 'b', fromSeq: 4, toSeq: 5 },
      ],
    });
    expect(violation(() => planUndo(events.slice(0, 2), 1)).code).toBe('UNDO_NOTHING_TO_UNDO');
  });

  it('an ended fight cannot be undone: its seed is revealed', () => {
    expect(violation(() => planUndo(duel('fair').entries, 1)).code).toBe('FIGHT_ENDED');
  });

  it('foldFight honours an undo of earlier commands by re-folding the rest', () => {
    const f = midFight();
    f.run({ type: 'AddNote', text: 'a' });
    f.run(attack(f.state.activeId!, foe(f), { response: { response: 'clash', boost: 0 } }));
    const note = f.entries.find((e) => e.type === 'GmNoteAdded')!;
    const rest = f.entries.filter((e) => e !== note);
    const undo = {
      seq: f.entries.length + 1,
      type: 'ActionsUndone',
      data: { count: 1, undone: [{ commandId: note.commandId, fromSeq: note.seq, toSeq: note.seq }] },
    };
    expect(foldFight(narateer, 'fight-1', [...f.entries, undo])).toEqual(
      foldFight(narateer, 'fight-1', rest),
    );
  });
});
