import { given } from '../given';
import { narateer } from '../../src/narateer';
import { RuleEvent } from '../../src/core/types';
import { at, exact, fight, find, mira, move, orin, sheet, stateOf, then, types } from './helpers';

/** Mover m (side m) at (1,0), guard g (side g, sword reach 1) at (0,0); m's activation runs. */
function yard(
  extra: { id: string; sheet: Record<string, unknown>; side?: string; pos: [number, number] }[] = [],
  mover = mira,
): RuleEvent[] {
  let events = fight(
    [
      {
        id: 'g',
        sheet: {
          ...orin,
          weapons: [
            {
              id: 'sword',
              name: 'Sword',
              kind: 'melee',
              baseAttackCost: 1,
              weaponDamage: 2,
              damageVitalCap: 3,
              harm: 'Physical (Slashing)',
            },
          ],
        },
      },
      ...extra,
      { id: 'm', sheet: mover },
    ],
    'm',
  );
  events = at(at(events, 'g', 0, 0), 'm', 1, 0);
  for (const e of extra) events = at(events, e.id, ...e.pos);
  return events;
}

/** Mover m (side m) at (0,0); g1 at (1,1) and g2 at (1,−1) (side g, sword reach 1, 5 Ready AD); m's activation runs. */
function pincer(mover = sheet()): RuleEvent[] {
  let events = fight(
    [
      { id: 'm', sheet: mover, side: 'm' },
      { id: 'g1', sheet: sheet(), side: 'g' },
      { id: 'g2', sheet: sheet(), side: 'g' },
    ],
    'm',
  );
  events = at(at(events, 'm', 0, 0), 'g1', 1, 1);
  return at(events, 'g2', 1, -1);
}

describe('Opportunity Attacks (narateer.txt, RULINGS.md N13, N24)', () => {
  it('a step from one Space within reach to another within reach stops the move and offers the opportunity', () => {
    const events = exact(
      yard(),
      move('m', [
        [1, 1],
        [2, 1],
        [3, 1],
      ]),
    );
    expect(types(events)).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
    expect(events[0].data).toMatchObject({ path: [{ x: 1, y: 1 }], to: { x: 1, y: 1 }, stoppedBefore: 2 });
    expect(events[1].data).toEqual({
      moverId: 'm',
      step: { from: { x: 1, y: 0 }, to: { x: 1, y: 1 } },
      reactorIds: ['g'],
    });
    const s = stateOf([...yard(), ...events]);
    expect(s.pending).toMatchObject({
      kind: 'opportunityAttack',
      awaiting: 'g',
      answer: 'TakeOpportunityAttack',
    });
    expect(s.combatants.m.position).toEqual({ x: 1, y: 1 });
  });

  it('entering or leaving melee reach does not trigger; direction does not matter', () => {
    let events = at(yard(), 'm', 3, 0);
    const entering = exact(
      events,
      move('m', [
        [2, 0],
        [1, 0],
      ]),
    );
    expect(types(entering)).toEqual(['Moved']);
    events = [...events, ...entering];
    expect(
      types(
        exact(
          events,
          move('m', [
            [2, 0],
            [3, 0],
          ]),
        ),
      ),
    ).toEqual(['Moved']);
    expect(types(exact(events, move('m', [[1, -1]])))).toEqual([
      'Moved',
      'OpportunitiesIdentified',
      'OpportunityOffered',
    ]);
  });

  it('the reactor initiates a Melee Exchange outside its activation at the new position, without a proactive use', () => {
    let events = [
      ...yard(),
      ...exact(
        yard(),
        move('m', [
          [1, 1],
          [2, 1],
        ]),
      ),
    ];
    expect(
      given(narateer, events)
        .when(move('m', [[2, 1]]))
        .violation().code,
    ).toBe('PENDING_DECISION');
    events = then(events, { type: 'TakeOpportunityAttack', combatantId: 'g', weaponId: 'sword', boost: 1 });
    expect(find(events, 'ExchangeDeclared')).toMatchObject({
      attackerId: 'g',
      targetId: 'm',
      kind: 'melee',
      opportunity: true,
      distance: 1,
    });
    expect(stateOf(events).combatants.g.uses.melee).toBe(0);
    expect(stateOf(events).pending).toMatchObject({ kind: 'exchangeResponse', awaiting: 'm' });
    const resolved = exact(
      events,
      { type: 'RespondToExchange', combatantId: 'm', response: 'fullGuard' },
      { dice: [3, 1, 3], rerollFaces: [1] },
    );
    // 1 dot each: Full Guard's tie stops the attack; the queue is then empty.
    expect(types(resolved)).toEqual(['ExchangeResponded', 'ExchangeResolved', 'OpportunitiesFinished']);
    expect(find(resolved, 'ExchangeResolved')).toMatchObject({ outcome: 'guarded' });
    events = [...events, ...resolved];
    expect(stateOf(events).pending).toBeUndefined();
    // The mover remains where it was hit and may continue with a new Move.
    expect(types(exact(events, move('m', [[2, 1]])))).toEqual(['Moved']);
  });

  it('several reactors: identified together, offered one at a time in initiative order; a decline passes to the next', () => {
    const events = yard([
      {
        id: 'h',
        sheet: {
          ...orin,
          weapons: [
            {
              id: 'mace',
              name: 'Mace',
              kind: 'melee',
              baseAttackCost: 1,
              weaponDamage: 2,
              damageVitalCap: 3,
              harm: 'Physical (Impact)',
            },
          ],
        },
        side: 'g',
        pos: [2, 1],
      },
    ]);
    const moved = exact(events, move('m', [[1, 1]]));
    expect(moved[1].data).toMatchObject({ reactorIds: ['g', 'h'] });
    const declined = exact([...events, ...moved], { type: 'DeclineOpportunity', combatantId: 'g' });
    expect(types(declined)).toEqual(['OpportunityDeclined', 'OpportunityOffered']);
    expect(declined[1].data).toEqual({ moverId: 'm', reactorId: 'h' });
    const after = [...events, ...moved, ...declined];
    expect(
      given(narateer, after).when({ type: 'DeclineOpportunity', combatantId: 'g' }).violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_YOUR_OPPORTUNITY', field: 'combatantId' });
    expect(types(exact(after, { type: 'DeclineOpportunity', combatantId: 'h' }))).toEqual([
      'OpportunityDeclined',
      'OpportunitiesFinished',
    ]);
  });

  it('the mover may Clash and wound the reactor; the next reactor is offered after the Wounds', () => {
    const events = yard([{ id: 'h', sheet: orin, side: 'g', pos: [2, 1] }]);
    let after = then(events, move('m', [[1, 1]]));
    after = then(after, { type: 'TakeOpportunityAttack', combatantId: 'g', weaponId: 'sword', boost: 0 });
    const resolved = exact(
      after,
      { type: 'RespondToExchange', combatantId: 'm', response: 'clash', boost: 1 },
      { dice: [1, 6, 3], followUpFaces: [4, 4] },
    );
    expect(types(resolved)).toEqual([
      'ExchangeResponded',
      'ExchangeResolved',
      'WoundsApplied',
      'ContinuationChecked',
      'OpportunityOffered',
    ]);
    // Mira wins by 3 with her sword (2 + Agility 3) against g's Soak 1: 3 + 5 − 1 = 7 → 5 Wounds to g, who checks.
    expect(find(resolved, 'WoundsApplied')).toMatchObject({
      combatantId: 'g',
      hitMargin: 3,
      strikeRating: 5,
      woundMargin: 7,
      wounds: 5,
      vitality: 3,
    });
    expect(find(resolved, 'ContinuationChecked')).toMatchObject({ combatantId: 'g', passed: true });
    expect(find(resolved, 'OpportunityOffered')).toEqual({ moverId: 'm', reactorId: 'h' });
  });

  it('a mover who chooses where its Wounds go (ASK) answers first; then the next reactor is offered', () => {
    const events = yard([{ id: 'h', sheet: orin, side: 'g', pos: [2, 1] }], {
      ...mira,
      maxMD: 2,
      woundPreference: 'ASK',
    });
    let after = then(events, move('m', [[1, 1]]));
    after = then(after, { type: 'TakeOpportunityAttack', combatantId: 'g', weaponId: 'sword', boost: 0 });
    const hit = exact(
      after,
      { type: 'RespondToExchange', combatantId: 'm', response: 'none' },
      { dice: [3] },
    );
    // g's sword: 2 + Strength 3; 1 + 5 − 1 = 5 → 3 Wounds; m has Ready AD and Ready MD, so it is asked.
    expect(types(hit)).toEqual(['ExchangeResponded', 'ExchangeResolved', 'WoundAllocationRequested']);
    expect(find(hit, 'WoundAllocationRequested')).toMatchObject({
      combatantId: 'm',
      wounds: 3,
      woundMargin: 5,
    });
    after = [...after, ...hit];
    expect(
      given(narateer, after).when({ type: 'DeclineOpportunity', combatantId: 'h' }).violation().code,
    ).toBe('PENDING_DECISION');
    const allocated = exact(after, {
      type: 'AllocateWounds',
      combatantId: 'm',
      allocation: ['MD', 'MD', 'AD'],
    });
    expect(types(allocated)).toEqual(['WoundsApplied', 'OpportunityOffered']);
    expect(allocated[0].data).toMatchObject({
      vitality: 5,
      md: { ready: 0, wounded: 2 },
      ad: { ready: 4, wounded: 1 },
    });
    expect(stateOf([...after, ...allocated]).pending).toMatchObject({
      kind: 'opportunityAttack',
      awaiting: 'h',
    });
  });

  it('before each attack the reactor is checked again: one who can no longer pay lapses', () => {
    const events = yard([{ id: 'h', sheet: orin, side: 'g', pos: [2, 1] }]);
    const moved = exact(events, move('m', [[1, 1]]));
    const spent: RuleEvent = { type: 'DiceSpent', data: { combatantId: 'h', ad: 5, md: 0 } };
    const declined = exact([...events, ...moved, spent], { type: 'DeclineOpportunity', combatantId: 'g' });
    expect(types(declined)).toEqual(['OpportunityDeclined', 'OpportunityLapsed', 'OpportunitiesFinished']);
  });

  it('allies, Collapsed, unarmed or Blinded and Deafened combatants do not react; nor does a Deafened one to an Invisible mover (N60)', () => {
    const friend = yard([{ id: 'f', sheet: orin, side: 'm', pos: [2, 0] }]);
    expect(exact(friend, move('m', [[1, 1]]))[1].data).toMatchObject({ reactorIds: ['g'] });
    const deafened = { type: 'ApplyCondition', combatantId: 'g', condition: 'deafened' };
    const blinded = then(
      then(yard(), { type: 'ApplyCondition', combatantId: 'g', condition: 'blinded' }),
      deafened,
    );
    expect(types(exact(blinded, move('m', [[1, 1]])))).toEqual(['Moved']);
    const down = then(yard(), {
      type: 'ApplyWounds',
      combatantId: 'g',
      wounds: 8,
      harm: 'Physical (Impact)',
    });
    expect(types(exact(down, move('m', [[1, 1]])))).toEqual(['Moved']);
    const ghost = then(
      then(yard(), { type: 'ApplyCondition', combatantId: 'm', condition: 'invisible' }),
      deafened,
    );
    expect(types(exact(ghost, move('m', [[1, 1]])))).toEqual(['Moved']);
  });

  it('movement that a rule says triggers no Reactions (noReactions) gives no opportunity', () => {
    const events = exact(
      yard(),
      move(
        'm',
        [
          [1, 1],
          [2, 1],
        ],
        { noReactions: true },
      ),
    );
    expect(types(events)).toEqual(['Moved']);
    expect(events[0].data).toMatchObject({ noReactions: true });
  });

  it('being moved by another effect (forced) triggers the same way; a Restrained combatant cannot move by itself', () => {
    const held = then(yard(), { type: 'ApplyCondition', combatantId: 'm', condition: 'restrained' });
    expect(
      given(narateer, held)
        .when(move('m', [[1, 1]]))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_RESTRAINED', field: 'combatantId' });
    const shoved = exact(held, move('m', [[1, 1]], { forced: true }));
    expect(types(shoved)).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
  });

  it('a path moves Space by Space on the map, in the mover’s own activation', () => {
    expect(
      given(narateer, yard())
        .when(
          move('m', [
            [1, 1],
            [3, 3],
          ]),
        )
        .violation(),
    ).toMatchObject({ code: 'NARATEER_INVALID_STEP', field: 'path[1]' });
    expect(
      given(narateer, yard())
        .when(move('g', [[0, 1]]))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_YOUR_ACTIVATION', field: 'combatantId' });
    const off = then(yard(), { type: 'SetPosition', combatantId: 'm', position: null });
    expect(
      given(narateer, off)
        .when(move('m', [[1, 1]]))
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ON_MAP', field: 'combatantId' });
  });

  it('RULINGS.md N13: given a combatant on a Space, when the GM sets it on that same Space (or takes it off the map twice), then nothing changes and no event is recorded', () => {
    const place = (position: { x: number; y: number } | null) => ({
      type: 'SetPosition',
      combatantId: 'm',
      position,
    });
    expect(exact(yard(), place({ x: 1, y: 0 }))).toEqual([]);
    expect(types(exact(yard(), place({ x: 0, y: 1 })))).toEqual(['PositionSet']);
    expect(exact(then(yard(), place(null)), place(null))).toEqual([]);
  });

  it('N54: given an opponent with no map position beside the mover in the fiction, when the mover steps, then no opportunity is identified; placed within reach first, it is', () => {
    const unplaced = then(yard(), { type: 'SetPosition', combatantId: 'g', position: null });
    expect(types(exact(unplaced, move('m', [[1, 1]])))).toEqual(['Moved']);
    const placed = exact(at(unplaced, 'g', 0, 0), move('m', [[1, 1]]));
    expect(placed[1].data).toMatchObject({ reactorIds: ['g'] });
  });

  it('N29: the GM cancelling an offered opportunity ends the whole queue', () => {
    const events = yard([{ id: 'h', sheet: orin, side: 'g', pos: [2, 1] }]);
    const moved = [...events, ...exact(events, move('m', [[1, 1]]))];
    const s = given(narateer, moved).when({ type: 'CancelPending' }).state();
    expect(s.opportunity).toBeUndefined();
    expect(s.pending).toBeUndefined();
  });

  it('N29: a cancelled Opportunity Attack response is withdrawn as if undeclared: its reactor holds the offer again, the next still follows', () => {
    const moved = then(pincer(), move('m', [[1, 0]]));
    expect(find(moved, 'OpportunitiesIdentified')).toMatchObject({ reactorIds: ['g1', 'g2'] });
    const declared = then(moved, {
      type: 'TakeOpportunityAttack',
      combatantId: 'g1',
      weaponId: 'sword',
      boost: 0,
    });
    const cancelled = exact(declared, { type: 'CancelPending' });
    expect(types(cancelled)).toEqual(['PendingCancelled', 'OpportunitiesIdentified', 'OpportunityOffered']);
    // PendingCancelled folds as it always did; the queue is identified again, the withdrawn reactor first.
    expect(cancelled[1].data).toEqual({
      moverId: 'm',
      step: { from: { x: 0, y: 0 }, to: { x: 1, y: 0 } },
      reactorIds: ['g1', 'g2'],
    });
    expect(cancelled[2].data).toEqual({ moverId: 'm', reactorId: 'g1' });
    let after = [...declared, ...cancelled];
    const s = stateOf(after);
    expect(s.exchange).toBeUndefined();
    expect(s.combatants.g1.ad).toEqual({ ready: 5, used: 0, wounded: 0 });
    expect(s.pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g1' });
    // The step's Reactions are not finished: the mover still waits where it stepped.
    expect(s.combatants.m.position).toEqual({ x: 1, y: 0 });
    expect(
      given(narateer, after)
        .when(move('m', [[2, 0]]))
        .violation().code,
    ).toBe('PENDING_DECISION');
    after = then(after, { type: 'DeclineOpportunity', combatantId: 'g1' });
    const g2 = exact(after, {
      type: 'TakeOpportunityAttack',
      combatantId: 'g2',
      weaponId: 'sword',
      boost: 0,
    });
    expect(find(g2, 'ExchangeDeclared')).toMatchObject({
      attackerId: 'g2',
      targetId: 'm',
      opportunity: true,
    });
  });

  it('N29: cancelled Wounds from an Opportunity Attack are dropped and the queue goes on; after the last reactor the mover moves on', () => {
    const ask = { ...sheet(), maxMD: 2, woundPreference: 'ASK' };
    let events = then(pincer(ask), move('m', [[1, 0]]));
    const hit = (reactor: string) =>
      then(
        events,
        {
          type: 'TakeOpportunityAttack',
          combatantId: reactor,
          weaponId: 'sword',
          boost: 0,
          response: 'none',
        },
        { dice: [6] },
      );
    events = hit('g1');
    expect(stateOf(events).pending).toMatchObject({ kind: 'woundAllocation', awaiting: 'm' });
    const first = exact(events, { type: 'CancelPending' });
    expect(types(first)).toEqual(['PendingCancelled', 'OpportunitiesIdentified', 'OpportunityOffered']);
    expect(first[1].data).toMatchObject({ moverId: 'm', reactorIds: ['g2'] });
    expect(first[2].data).toEqual({ moverId: 'm', reactorId: 'g2' });
    events = [...events, ...first];
    expect(stateOf(events).combatants.m.vitality).toBe(8);
    expect(stateOf(events).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g2' });
    events = hit('g2');
    // No reactor is left: the queue ends with the cancellation, as it always did.
    const last = exact(events, { type: 'CancelPending' });
    expect(types(last)).toEqual(['PendingCancelled']);
    events = [...events, ...last];
    expect(stateOf(events)).toMatchObject({ opportunity: undefined, pending: undefined });
    expect(stateOf(events).combatants.m.vitality).toBe(8);
    expect(types(exact(events, move('m', [[2, 0]])))[0]).toBe('Moved');
  });

  it('sheet-less check: a reactor needs a melee weapon whose reach covers both Spaces', () => {
    const unarmed = yard([{ id: 'u', sheet: sheet({ weapons: [] }), side: 'g', pos: [2, 1] }]);
    expect(exact(unarmed, move('m', [[1, 1]]))[1].data).toMatchObject({ reactorIds: ['g'] });
  });
});

describe('N42: an Opportunity Attack by a reactor with weapons of different reach', () => {
  const halberd = {
    id: 'halberd',
    name: 'Halberd',
    kind: 'melee',
    weight: 'heavy',
    baseAttackCost: 3,
    weaponDamage: 4,
    damageVitalCap: 4,
    reach: 2,
    harm: 'Physical (Slashing)',
  };
  const dagger = {
    id: 'dagger',
    name: 'Dagger',
    kind: 'melee',
    baseAttackCost: 1,
    weaponDamage: 1,
    damageVitalCap: 2,
    harm: 'Physical (Piercing)',
  };
  /** Reactor r (halberd reach 2, dagger reach 1) at (0,0) with `ad` Ready AD; mover m at (2,0); m's activation runs. */
  function hall(ad: number): RuleEvent[] {
    let events = fight(
      [
        { id: 'r', sheet: sheet({ weapons: [halberd, dagger], maxAD: ad }), side: 'r' },
        { id: 'm', sheet: mira, side: 'm' },
      ],
      'm',
    );
    events = at(events, 'r', 0, 0);
    return at(events, 'm', 2, 0);
  }

  it('N42: the reactor’s melee reach is its longest (halberd, 2); it may strike with the dagger, which reaches the new Space and which it can pay for', () => {
    // A step from 2 Spaces away to 1: both within the halberd's reach 2. With 2 Ready AD the halberd (cost 3)
    // cannot be paid, but the dagger (cost 1) reaches the new Space 1 away: "make a legal melee attack against it
    // and pay the attack's cost".
    const events = exact(hall(2), move('m', [[1, 0]]));
    expect(types(events)).toEqual(['Moved', 'OpportunitiesIdentified', 'OpportunityOffered']);
    expect(events[1].data).toMatchObject({ reactorIds: ['r'] });
    const struck = exact(
      [...hall(2), ...events],
      {
        type: 'TakeOpportunityAttack',
        combatantId: 'r',
        weaponId: 'dagger',
        boost: 0,
        response: 'none',
      },
      { dice: [3] },
    );
    expect(find(struck, 'ExchangeDeclared')).toMatchObject({ weaponId: 'dagger', opportunity: true });
    // The halberd it cannot pay for is refused.
    expect(
      given(narateer, [...hall(2), ...events])
        .when({ type: 'TakeOpportunityAttack', combatantId: 'r', weaponId: 'halberd', boost: 0 })
        .violation(),
    ).toMatchObject({ code: 'NARATEER_NOT_ENOUGH_READY_AD', field: 'weaponId' });
  });

  it('N42: a step that ends out of reach of every weapon it can pay for gives no opportunity', () => {
    // From 1 Space away to 2: within the halberd's reach, but the dagger does not reach the new Space and the halberd
    // cannot be paid.
    let events = at(hall(2), 'm', 1, 0);
    expect(types(exact(events, move('m', [[2, 1]])))).toEqual(['Moved']);
    // With 3 Ready AD the halberd can be paid: the same step opens the opportunity.
    events = at(hall(3), 'm', 1, 0);
    expect(types(exact(events, move('m', [[2, 1]])))).toEqual([
      'Moved',
      'OpportunitiesIdentified',
      'OpportunityOffered',
    ]);
  });
});
