import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../src/core/types';
import { ManualFaces } from '../src/dice/manual';
import { findSystem } from '../src/registry';
import { decide, refusal, stateOf } from './as-sent';
import { fightStarted } from './given';
import * as n from './narateer/helpers';
import * as a from './arcana-beast/helpers';
import * as s from './archsoul/helpers';

const narateer = findSystem('narateer')!;
const arcana = findSystem('arcana-beast')!;
const archsoul = findSystem('archsoul')!;
const PROVIDE = (faces: ManualFaces): RuleCommand => ({ type: 'ProvideDice', ...faces });

/**
 * The command sent short, then answered step by step: each step but the last asks again with `asks`;
 * the last gives exactly the events, and the state, of the whole command sent up front.
 */
function answered(
  system: RuleSystem<FightCore>,
  history: RuleEvent[],
  command: RuleCommand,
  whole: ManualFaces,
  steps: { give: ManualFaces; asks?: Record<string, unknown> }[],
  first: Record<string, unknown>,
) {
  const upFront = decide(system, history, { ...command, ...whole });
  const requested = [...history, ...decide(system, history, { ...command, ...shortOf(whole, steps) })];
  let events = requested;
  expect(events.slice(history.length).map((e) => e.type)).toEqual(['DiceRequested']);
  expect(stateOf(system, events).pending).toMatchObject({
    kind: 'dice',
    answer: 'ProvideDice',
    detail: { commandType: command.type, ...first },
  });
  for (const [i, step] of steps.entries()) {
    const out = decide(system, events, PROVIDE(step.give));
    if (i < steps.length - 1) {
      expect(out.map((e) => e.type)).toEqual(['DiceRequested']);
      expect(stateOf(system, [...events, ...out]).pending?.detail).toMatchObject(step.asks ?? {});
    } else {
      expect(out).toEqual(upFront);
      expect(stateOf(system, [...events, ...out])).toEqual(stateOf(system, [...history, ...upFront]));
    }
    events = [...events, ...out];
  }
  return { requested, upFront };
}

/** The faces of `whole` minus everything the steps give (each step's faces come off the end of its list). */
function shortOf(whole: ManualFaces, steps: { give: ManualFaces }[]): ManualFaces {
  const out: ManualFaces = {};
  for (const field of ['dice', 'rerollFaces', 'followUpFaces'] as const) {
    const given = steps.reduce((t, st) => t + (st.give[field]?.length ?? 0), 0);
    const list = whole[field] ?? [];
    if (list.length - given > 0) out[field] = list.slice(0, list.length - given);
  }
  return out;
}

describe('docs/rulings.md C13: later manual dice are asked for (RULINGS.md C6)', () => {
  describe('Narateer', () => {
    const duel = () => n.duel();
    const declared = () => n.then(duel(), n.melee('mira', 'orin', 0));
    const shootout = () => n.shootout();
    const shot = n.ranged('sera', 'veyr', 'bow', 2, {
      distance: 20,
      attackerCannotSeeTarget: true,
      response: 'none',
    });

    it('N2: a Full Guard without its Edge reroll asks the responder for it; the answer gives the events sent up front', () => {
      const { requested } = answered(
        narateer,
        declared(),
        n.respond('orin', 'fullGuard'),
        { dice: [1, 6], rerollFaces: [6] },
        [{ give: { rerollFaces: [6] } }],
        { field: 'rerollFaces', count: 1, sides: 6 },
      );
      const state = stateOf(narateer, requested);
      expect(state.pending).toMatchObject({
        kind: 'dice',
        awaiting: 'orin',
        answer: 'ProvideDice',
        detail: { reason: expect.stringContaining('reroll') },
      });
      expect(narateer.view(state).pending).toEqual(state.pending);
      expect(JSON.stringify(narateer.view(state))).not.toContain('"command"');
    });

    it('an Edge reroll then the target’s Continuation Check: the reroll completes the shot, and the check alone is asked of the target (N61)', () => {
      const whole = { dice: [3, 6, 4], rerollFaces: [2], followUpFaces: [4, 1] };
      const upFront = decide(narateer, shootout(), { ...shot, ...whole });
      const held = [...shootout(), ...decide(narateer, shootout(), { ...shot, dice: [3, 6, 4] })];
      expect(stateOf(narateer, held).pending).toMatchObject({
        awaiting: 'sera',
        detail: { commandType: 'DeclareExchange', field: 'rerollFaces', count: 1 },
      });
      const shotDone = decide(narateer, held, PROVIDE({ rerollFaces: [2] }));
      expect(shotDone.slice(0, -1)).toEqual(upFront.slice(0, -1));
      expect(stateOf(narateer, [...held, ...shotDone]).pending).toMatchObject({
        awaiting: 'veyr',
        detail: { commandType: 'ContinuationCheck', field: 'followUpFaces', count: 2, sides: 6 },
      });
      const checked = decide(narateer, [...held, ...shotDone], PROVIDE({ followUpFaces: [4, 1] }));
      expect([...shotDone.slice(0, -1), ...checked]).toEqual(upFront);
    });

    it('a Continuation Check at the round’s end is asked of the command that closes the round, though it carries no pool', () => {
      const solo = n.fight([{ id: 'a', sheet: n.sheet({ maxVitality: 4 }) }], 'a');
      let events = n.then(solo, {
        type: 'ApplyWounds',
        combatantId: 'a',
        wounds: 2,
        harm: 'Physical (Impact)',
      });
      events = n.then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding' });
      const { requested } = answered(
        narateer,
        events,
        { type: 'EndActivation' },
        { followUpFaces: [1, 1] },
        [{ give: { followUpFaces: [1, 1] } }],
        { field: 'followUpFaces', count: 2, sides: 6 },
      );
      expect(stateOf(narateer, requested).pending?.awaiting).toBe('a');
    });

    it('the line: the command’s own first pool short is refused; a later pool in dice is asked for', () => {
      const clash = n.respond('orin', 'clash', 1);
      expect(refusal(narateer, declared(), clash)).toMatchObject({
        code: 'DICE_MANUAL_FACES_MISSING',
        field: 'dice[0]',
      });
      expect(refusal(narateer, declared(), { ...clash, dice: [] })).toMatchObject({
        code: 'DICE_MANUAL_FACES_MISSING',
        field: 'dice[0]',
      });
      // Orin's Clash counter-hits Mira: her Continuation Check is hers to roll, asked of her alone (N61).
      const upFront = decide(narateer, declared(), { ...clash, dice: [1, 6, 3], followUpFaces: [4, 4] });
      const held = [...declared(), ...decide(narateer, declared(), { ...clash, dice: [1] })];
      expect(stateOf(narateer, held).pending).toMatchObject({
        awaiting: 'orin',
        detail: { commandType: 'RespondToExchange', field: 'dice', count: 2, sides: 6 },
      });
      const pools = decide(narateer, held, PROVIDE({ dice: [6, 3] }));
      expect(pools.slice(0, -1)).toEqual(upFront.slice(0, -1));
      expect(stateOf(narateer, [...held, ...pools]).pending).toMatchObject({
        awaiting: 'mira',
        detail: { commandType: 'ContinuationCheck', field: 'followUpFaces', count: 2 },
      });
      const checked = decide(narateer, [...held, ...pools], PROVIDE({ followUpFaces: [4, 4] }));
      expect([...pools.slice(0, -1), ...checked]).toEqual(upFront);
    });

    it('CancelPending drops the held command and brings back the decision it answered', () => {
      const events = [
        ...declared(),
        ...decide(narateer, declared(), { ...n.respond('orin', 'fullGuard'), dice: [1, 6] }),
      ];
      const cancelled = decide(narateer, events, { type: 'CancelPending', reason: 'rolled the wrong die' });
      expect(cancelled).toEqual([
        {
          type: 'DiceRequestCancelled',
          data: {
            commandType: 'RespondToExchange',
            restored: 'exchangeResponse',
            reason: 'rolled the wrong die',
          },
        },
      ]);
      const after = stateOf(narateer, [...events, ...cancelled]);
      expect(after.pending).toEqual(stateOf(narateer, declared()).pending);
      expect(after.diceRequest).toBeUndefined();
      // The decision is answered again from scratch, with all its faces.
      expect(
        decide(narateer, [...events, ...cancelled], {
          ...n.respond('orin', 'fullGuard'),
          dice: [1, 6],
          rerollFaces: [6],
        }).map((e) => e.type),
      ).toContain('ExchangeResolved');
    });

    it('while asking, only the answer, CancelPending, AddNote and EndFight pass (C4); a player answers only for the awaited combatant', () => {
      const events = [
        ...declared(),
        ...decide(narateer, declared(), { ...n.respond('orin', 'fullGuard'), dice: [1, 6] }),
      ];
      const state = stateOf(narateer, events);
      expect(refusal(narateer, events, n.respond('orin', 'fullGuard'))).toMatchObject({
        code: 'PENDING_DECISION',
      });
      expect(refusal(narateer, events, { type: 'EndActivation' })).toMatchObject({
        code: 'PENDING_DECISION',
      });
      const noted = [
        ...events,
        ...decide(narateer, events, { type: 'AddNote', text: 'waiting for the reroll' }),
      ];
      expect(stateOf(narateer, noted).pending?.kind).toBe('dice');
      expect(narateer.actorOf!(state, PROVIDE({ rerollFaces: [6] }))).toEqual({
        combatantId: 'orin',
        field: 'type',
      });
      expect(narateer.actorOf!(state, { type: 'CancelPending' })).toBeUndefined();
      expect(refusal(narateer, declared(), PROVIDE({ rerollFaces: [6] }))).toMatchObject({
        code: 'NO_DICE_REQUEST',
      });
    });

    it('extra faces are still refused, named in ProvideDice’s own lists; an empty answer is refused', () => {
      const events = [
        ...declared(),
        ...decide(narateer, declared(), { ...n.respond('orin', 'fullGuard'), dice: [1, 6] }),
      ];
      expect(refusal(narateer, events, PROVIDE({ rerollFaces: [6, 2] }))).toMatchObject({
        code: 'DICE_MANUAL_FACES_EXTRA',
        field: 'rerollFaces[1]',
      });
      expect(refusal(narateer, events, PROVIDE({ rerollFaces: [6], followUpFaces: [3] }))).toMatchObject({
        code: 'DICE_MANUAL_FACES_EXTRA',
        field: 'followUpFaces[0]',
      });
      expect(refusal(narateer, events, PROVIDE({ rerollFaces: [7] }))).toMatchObject({
        code: 'DICE_FACE_OUT_OF_RANGE',
        field: 'rerollFaces[0]',
      });
      expect(refusal(narateer, events, PROVIDE({}))).toMatchObject({
        code: 'DICE_MANUAL_FACES_MISSING',
        field: 'rerollFaces[0]',
      });
    });

    it('a command answered in advance still needs no request (C6)', () => {
      expect(
        decide(narateer, shootout(), {
          ...shot,
          dice: [3, 6, 4],
          rerollFaces: [2],
          followUpFaces: [4, 1],
        }).map((e) => e.type),
      ).not.toContain('DiceRequested');
    });
  });

  describe('Arcana Beast', () => {
    const tough: a.Fighter[] = [
      {
        id: 'ember',
        sheet: a.beast({ stats: { brawn: 3, agility: 2, endurance: 3, spirit: 2, technique: 2 } }),
        side: 'h',
      },
      { id: 'ash', sheet: a.binder('ember'), side: 'h' },
      { id: 'wolf', sheet: a.wild(), side: 'w' },
    ];
    const start = () => a.close(a.fight(tough, 'ember'), 'ember', 'wolf');
    const callBack = { type: 'CallBack', combatantId: 'ash', mode: 'devolve' };

    it('A16: a Devolution Test is asked of the Binder, twice when answered in part, and cancelling drops the Call Back', () => {
      const { requested } = answered(
        arcana,
        start(),
        callBack,
        { followUpFaces: [1, 5, 6, 4] },
        [
          { give: { followUpFaces: [1, 5] }, asks: { field: 'followUpFaces', count: 2, sides: 8 } },
          { give: { followUpFaces: [6, 4] } },
        ],
        { field: 'followUpFaces', count: 4, sides: 8 },
      );
      const state = stateOf(arcana, requested);
      expect(state.pending?.awaiting).toBe('ash');
      expect(arcana.actorOf!(state, PROVIDE({ followUpFaces: [1, 5, 6, 4] }))).toEqual({
        combatantId: 'ash',
        field: 'type',
      });
      const cancelled = decide(arcana, requested, { type: 'CancelPending' });
      expect(cancelled.map((e) => e.type)).toEqual(['DiceRequestCancelled']);
      expect(stateOf(arcana, [...requested, ...cancelled])).toEqual(stateOf(arcana, start()));
    });

    it('A5: the tied beasts’ initiative rerolls are asked of the GM; no player may answer', () => {
      const setup = [fightStarted('arcana-beast'), ...a.party.map(a.joined)];
      const opt = [
        { ...setup[0], data: { ...(setup[0].data as object), options: { initiativeTies: 'reroll' } } },
        ...setup.slice(1),
      ];
      const { requested } = answered(
        arcana,
        opt,
        { type: 'RollInitiative' },
        { dice: [4, 1, 6, 1, 1, 1, 1, 4, 4], rerollFaces: [8, 8, 1, 1, 1] },
        [{ give: { rerollFaces: [8, 8, 1, 1, 1] } }],
        { field: 'rerollFaces', count: 2 },
      );
      const state = stateOf(arcana, requested);
      expect(state.pending?.awaiting).toBe('gm');
      expect(arcana.actorOf!(state, PROVIDE({ rerollFaces: [8, 8] }))).toBeUndefined();
      expect(refusal(arcana, requested, PROVIDE({ rerollFaces: [8, 8, 1, 1, 1, 3] }))).toMatchObject({
        code: 'DICE_MANUAL_FACES_EXTRA',
        field: 'rerollFaces[5]',
      });
    });
  });

  describe('Archsoul', () => {
    const hero = (id: string, at: [number, number], extra: Record<string, unknown> = {}) => ({
      id,
      at,
      facing: 'N',
      sheet: s.sheet(extra),
    });
    const foe = (id: string, at: [number, number]) => ({
      id,
      at,
      facing: 'S',
      side: 'enemies',
      sheet: s.sheet(),
    });
    const FUMBLE4 = [1, 1, 1, 2];
    const gun = () =>
      s.fight([
        hero('a', [0, 0], { weapons: [s.pistol, s.sword] }),
        hero('b', [1, 0]),
        hero('c', [3, 0]),
        foe('v', [0, -3]),
      ]);
    const pistol = { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'pistol' };

    it('S15: the critical-failure table die is asked of the attacker', () => {
      const { requested } = answered(
        archsoul,
        gun(),
        pistol,
        { dice: FUMBLE4, followUpFaces: [1] },
        [{ give: { followUpFaces: [1] } }],
        { field: 'followUpFaces', count: 1, sides: 6 },
      );
      expect(stateOf(archsoul, requested).pending?.awaiting).toBe('a');
      expect(refusal(archsoul, gun(), pistol)).toMatchObject({
        code: 'DICE_MANUAL_FACES_MISSING',
        field: 'dice[0]',
      });
    });

    it('S15: a redirected hit asks for the table die, the pick among the candidates, then the damage pool in dice', () => {
      const events = s.fight(
        [
          hero('a', [0, 0], { weapons: [s.bow] }),
          foe('v', [0, -3]),
          foe('w', [1, -3]),
          hero('b', [-1, -3]),
          foe('x', [3, -3]),
        ],
        { options: { arrowBreakage: false } },
      );
      const bow = { ...pistol, weaponId: 'bow' };
      answered(
        archsoul,
        events,
        bow,
        { dice: [...FUMBLE4, 4, 5, 1], followUpFaces: [2, 2] },
        [
          { give: { followUpFaces: [2] }, asks: { field: 'followUpFaces', count: 1, sides: 2 } },
          { give: { followUpFaces: [2] }, asks: { field: 'dice', count: 3, sides: 6 } },
          { give: { dice: [4, 5, 1] } },
        ],
        { field: 'followUpFaces', count: 1, sides: 6 },
      );
    });

    it('a player’s ProvideDice is its own only for the awaited combatant', () => {
      const requested = [...gun(), ...decide(archsoul, gun(), { ...pistol, dice: FUMBLE4 })];
      const state = stateOf(archsoul, requested);
      expect(archsoul.actorOf!(state, PROVIDE({ followUpFaces: [1] }))).toEqual({
        combatantId: 'a',
        field: 'type',
      });
      expect(archsoul.commands.ProvideDice).toContain('C13');
    });
  });
});
