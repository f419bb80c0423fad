import { RuleEvent } from '../../src/core/types';
import { given } from '../given';
import { narateer } from '../../src/narateer';
import { at, exact, fight, find, sheet, stateOf, step, then, types } from './helpers';
import { Table } from './table';

const dotsOf = (f: number) => (f <= 2 ? 0 : f <= 5 ? 1 : 2);
const sum = (fs: number[]) => fs.reduce((t, f) => t + dotsOf(f), 0);

function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}

function edgeApply(faces: number[], net: 'advantage' | 'disadvantage' | 'none', reroll: number) {
  if (net === 'none') return faces;
  let idx = 0;
  for (let i = 1; i < faces.length; i++)
    if (net === 'advantage' ? faces[i] < faces[idx] : faces[i] > faces[idx]) idx = i;
  const d = dotsOf(reroll) - dotsOf(faces[idx]);
  if ((net === 'advantage' && d > 0) || (net === 'disadvantage' && d < 0)) {
    const n = faces.slice();
    n[idx] = reroll;
    return n;
  }
  return faces;
}

const conv = (m: number) => (m >= 9 ? 8 : m >= 7 ? 5 : m >= 5 ? 3 : m >= 3 ? 2 : m >= 1 ? 1 : 0);

describe('Audit: Combat Exchange Flow steps 7–10 against a model written from narateer.txt', () => {
  // Model: dots 1–2→0, 3–5→1, 6→2 (N1); Edge per N2; Winner = higher total, Full Guard wins ties, Clash tie and
  // 0 vs target number 0 land nothing (lines 79, 100, 180–182, N30); Hit Margin = winner − loser (line 200/204);
  // Strike = Weapon Damage + min(Vital, Cap) (line 212, highest allowed Vital, N21); Protection = Soak (line 222);
  // Wound Margin = HM + SR − PR (line 230); table of line 408; Continuation Check when VIT stays above 0 and
  // 2·VIT < Max or 2·Wounds > Max (lines 318–325, N18), one check of Resilience dice.
  it('1000 random melee exchanges (any response, Boost, GM Edge on either roll) resolve as the model says', () => {
    const r = rng(12345);
    for (let iter = 0; iter < 1000; iter++) {
      const aSL = r(4);
      const bSL = r(4);
      const aWeapon = {
        id: 'w',
        name: 'W',
        kind: 'melee',
        weight: 'light',
        baseAttackCost: 1 + r(2),
        weaponDamage: r(5),
        damageVitalCap: r(5),
        harm: 'Physical (Slashing)',
      };
      const bWeapon = { ...aWeapon, baseAttackCost: 1 + r(2), weaponDamage: r(5), damageVitalCap: r(5) };
      const aSheet = sheet({
        vitals: { strength: r(6), agility: r(6), resilience: r(4) },
        skills: { melee: aSL },
        maxVitality: 1 + r(10),
        maxAD: 3 + r(4),
        maxMD: r(3),
        weapons: [aWeapon],
        armour: { soak: r(5) },
      });
      const bSheet = sheet({
        vitals: { strength: r(6), agility: r(6), resilience: r(4) },
        skills: { melee: bSL },
        maxVitality: 1 + r(10),
        maxAD: 3 + r(4),
        maxMD: r(3),
        weapons: [bWeapon],
        armour: { soak: r(5) },
        woundPreference: r(2) ? 'AD_FIRST' : 'MD_FIRST',
      });
      const start = fight(
        [
          { id: 'a', sheet: aSheet },
          { id: 'b', sheet: bSheet },
        ],
        'a',
      );
      const aBoost = Math.min(aSL, (aSheet.maxAD as number) - aWeapon.baseAttackCost, r(4));
      const resp = ['none', 'fullGuard', 'clash'][r(3)];
      const bCost = resp === 'clash' ? bWeapon.baseAttackCost : resp === 'fullGuard' ? 1 : 0;
      const bBoost = resp === 'none' ? 0 : Math.min(bSL, (bSheet.maxAD as number) - bCost, r(4));
      const aEdge = [undefined, 'advantage', 'disadvantage'][r(3)] as any;
      const bEdge = [undefined, 'advantage', 'disadvantage'][r(3)] as any;
      const aFaces = Array.from({ length: aWeapon.baseAttackCost + aBoost }, () => 1 + r(6));
      const bFaces = Array.from({ length: bCost + bBoost }, () => 1 + r(6));
      const aNet = aEdge ?? 'none';
      let bNet: any = 'none';
      if (resp !== 'none') {
        const adv = resp === 'fullGuard' || bEdge === 'advantage';
        const dis = bEdge === 'disadvantage';
        bNet = adv === dis ? 'none' : adv ? 'advantage' : 'disadvantage';
      }
      const rerolls: number[] = [];
      let aF = aFaces;
      let bF = bFaces;
      if (aNet !== 'none') {
        const x = 1 + r(6);
        rerolls.push(x);
        aF = edgeApply(aFaces, aNet, x);
      }
      if (bNet !== 'none') {
        const x = 1 + r(6);
        rerolls.push(x);
        bF = edgeApply(bFaces, bNet, x);
      }
      const at = sum(aF);
      const bt = sum(bF);
      let outcome = 'tie';
      let margin = 0;
      if (resp === 'none') {
        if (at > 0) [outcome, margin] = ['hit', at];
      } else if (at > bt) [outcome, margin] = ['hit', at - bt];
      else if (resp === 'fullGuard') outcome = 'guarded';
      else if (bt > at) [outcome, margin] = ['counterHit', bt - at];
      const cmd: any = {
        type: 'DeclareExchange',
        attackerId: 'a',
        targetId: 'b',
        kind: 'melee',
        weaponId: 'w',
        boost: aBoost,
        response: { response: resp, boost: bBoost },
      };
      if (aEdge) cmd.edge = aEdge;
      if (bEdge) cmd.responderEdge = bEdge;
      let follow: number[] = [];
      let expWounds: any;
      if (outcome === 'hit' || outcome === 'counterHit') {
        const hit = outcome === 'hit';
        const W = hit ? aWeapon : bWeapon;
        const S: any = hit ? aSheet : bSheet;
        const L: any = hit ? bSheet : aSheet;
        const vital = Math.max(
          Math.min(S.vitals.strength, W.damageVitalCap),
          Math.min(S.vitals.agility, W.damageVitalCap),
        );
        const sr = W.weaponDamage + vital;
        const pr = L.armour.soak;
        const wm = margin + sr - pr;
        const wounds = conv(wm);
        const vit = L.maxVitality - wounds;
        const trig = 2 * vit < L.maxVitality || 2 * wounds > L.maxVitality;
        if (vit > 0 && trig) follow = Array.from({ length: L.vitals.resilience }, () => 1 + r(6));
        expWounds = {
          strikeRating: sr,
          protectionRating: pr,
          woundMargin: wm,
          wounds,
          vitality: vit,
          hitMargin: margin,
        };
      }
      const faces = { dice: [...aFaces, ...bFaces], rerollFaces: rerolls, followUpFaces: follow };
      let events: RuleEvent[];
      try {
        events = exact(start, cmd, faces);
      } catch (e) {
        throw new Error(`iter ${iter}: ${(e as Error).message} ${JSON.stringify({ cmd, faces, outcome })}`, {
          cause: e,
        });
      }
      const res = find(events, 'ExchangeResolved');
      expect({ iter, outcome: res.outcome, margin: res.hitMargin ?? 0 }).toEqual({ iter, outcome, margin });
      if (expWounds) expect({ iter, ...find(events, 'WoundsApplied') }).toMatchObject({ iter, ...expWounds });
    }
  });
});

const spear = {
  id: 'spear',
  name: 'Spear',
  kind: 'melee',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 2,
  reach: 2,
  harm: 'Physical (Piercing)',
};

describe('Audit: Opportunity Attacks (narateer.txt lines 116–146)', () => {
  it('line 140: "Resolve them in initiative order" — with an initiative order that differs from table order, the reactors come in initiative order', () => {
    // Joined g1, g2, m; initiative m, g2, g1. m steps (0,0)→(1,0): within reach 1 of g1 (1,1) and g2 (1,−1) both before and after.
    let events = fight(
      [
        { id: 'g1', sheet: sheet(), side: 'g' },
        { id: 'g2', sheet: sheet(), side: 'g' },
        { id: 'm', sheet: sheet(), side: 'm' },
      ],
      undefined,
    ).slice(0, 4);
    events = then(events, { type: 'SetInitiative', order: ['m', 'g2', 'g1'] });
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    events = at(at(at(events, 'm', 0, 0), 'g1', 1, 1), 'g2', 1, -1);
    const moved = exact(events, step('m', 1, 0));
    expect(find(moved, 'OpportunitiesIdentified').reactorIds).toEqual(['g2', 'g1']);
    expect(find(moved, 'OpportunityOffered')).toEqual({ moverId: 'm', reactorId: 'g2' });
  });

  it('line 140: "or table order if no initiative order is in use" — a forced step before any initiative offers the reactors in join order', () => {
    let events = fight([
      { id: 'g2', sheet: sheet(), side: 'g' },
      { id: 'g1', sheet: sheet(), side: 'g' },
      { id: 'm', sheet: sheet(), side: 'm' },
    ]).slice(0, 4);
    events = at(at(at(events, 'm', 0, 0), 'g1', 1, 1), 'g2', 1, -1);
    const moved = exact(events, step('m', 1, 0, { forced: true }));
    expect(find(moved, 'OpportunitiesIdentified').reactorIds).toEqual(['g2', 'g1']);
  });

  it('line 144: "Each qualifying step creates a new opportunity … whenever the requirements are met and you have enough Ready AD"', () => {
    // g (spear, reach 2, Max AD 1) at (0,0); m at (2,0). Step (2,0)→(2,1): both 2 away, an opening.
    let events = fight(
      [
        { id: 'm', sheet: sheet(), side: 'm' },
        { id: 'g', sheet: sheet({ maxAD: 2, weapons: [spear] }), side: 'g' },
      ],
      'm',
    );
    events = at(at(events, 'm', 2, 0), 'g', 0, 0);
    events = then(events, step('m', 2, 1));
    expect(stateOf(events).pending).toMatchObject({ kind: 'opportunityAttack', awaiting: 'g' });
    // g strikes (1 AD), m makes No Response; a 1 is 0 dots against target number 0: no hit (N30).
    events = then(
      events,
      { type: 'TakeOpportunityAttack', combatantId: 'g', weaponId: 'spear', boost: 0, response: 'none' },
      { dice: [1] },
    );
    expect(stateOf(events).opportunity).toBeUndefined();
    // The next step (2,1)→(2,2) is again within reach 2 before and after: a new opportunity; g has 1 Ready AD left.
    events = then(events, step('m', 2, 2));
    expect(find(events.slice(-3), 'OpportunitiesIdentified').reactorIds).toEqual(['g']);
    events = then(
      events,
      { type: 'TakeOpportunityAttack', combatantId: 'g', weaponId: 'spear', boost: 0, response: 'none' },
      { dice: [2] },
    );
    // g is out of Ready AD: the step (2,2)→(1,2), still within reach, opens nothing.
    expect(types(exact(events, step('m', 1, 2)))).toEqual(['Moved']);
  });

  it('N51: given another combatant in the next Space, when the mover steps into it and on, then each step is taken and the other is not moved', () => {
    let events = fight(
      [
        { id: 'm', sheet: sheet(), side: 'm' },
        { id: 'g', sheet: sheet(), side: 'm' },
      ],
      'm',
    );
    // An ally: no Opportunity Attack to answer (a foe's would be offered, its reach judged as the Spaces are).
    events = at(at(events, 'm', 0, 0), 'g', 1, 0);
    const into = exact(events, step('m', 1, 0));
    expect(find(into, 'Moved')).toMatchObject({ combatantId: 'm', to: { x: 1, y: 0 } });
    const on = [...events, ...into];
    const past = exact(on, step('m', 2, 0));
    expect(find(past, 'Moved')).toMatchObject({ combatantId: 'm', to: { x: 2, y: 0 } });
    const after = stateOf([...on, ...past]);
    expect([after.combatants.m.position, after.combatants.g.position]).toEqual([
      { x: 2, y: 0 },
      { x: 1, y: 0 },
    ]);
  });

  it('lines 116, 120, 140, 158 (model): 600 random one- to three-step paths stop at the first step that starts and ends within an opponent’s reach, naming exactly those opponents in initiative order', () => {
    const r = rng(777);
    for (let iter = 0; iter < 600; iter++) {
      const fighters = [0, 1, 2].map((i) => ({
        id: `r${i}`,
        reach: 1 + r(2),
        side: r(3) === 0 ? 'm' : 'g',
        pos: { x: r(7) - 3, y: r(7) - 3 },
      }));
      const sheets = fighters.map((f) => ({
        id: f.id,
        side: f.side,
        sheet: sheet({ weapons: [{ ...spear, reach: f.reach }] }),
      }));
      const order = ['m', 'r2', 'r0', 'r1'];
      let events = fight([...sheets, { id: 'm', sheet: sheet(), side: 'm' }]).slice(0, 5);
      events = then(events, { type: 'SetInitiative', order });
      events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
      let pos = { x: r(7) - 3, y: r(7) - 3 };
      events = at(events, 'm', pos.x, pos.y);
      for (const f of fighters) events = at(events, f.id, f.pos.x, f.pos.y);
      const path: { x: number; y: number }[] = [];
      for (let i = 0, n = 1 + r(3); i < n; i++) {
        let next;
        do next = { x: pos.x + r(3) - 1, y: pos.y + r(3) - 1 };
        while (next.x === pos.x && next.y === pos.y);
        path.push(next);
        pos = next;
      }
      const d = (a: { x: number; y: number }, b: { x: number; y: number }) =>
        Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
      let from = stateOf(events).combatants.m.position!;
      let expected: { stop: number; reactors: string[] } | undefined;
      for (let i = 0; i < path.length && !expected; i++) {
        const reactors = order.filter((id) => {
          const f = fighters.find((x) => x.id === id);
          return f && f.side !== 'm' && d(f.pos, from) <= f.reach && d(f.pos, path[i]) <= f.reach;
        });
        if (reactors.length > 0) expected = { stop: i, reactors };
        from = path[i];
      }
      const out = exact(events, { type: 'Move', combatantId: 'm', path });
      const moved = find(out, 'Moved');
      if (!expected) {
        expect({ iter, types: types(out), to: moved.to }).toEqual({
          iter,
          types: ['Moved'],
          to: path[path.length - 1],
        });
      } else {
        expect({ iter, to: moved.to, reactors: find(out, 'OpportunitiesIdentified').reactorIds }).toEqual({
          iter,
          to: path[expected.stop],
          reactors: expected.reactors,
        });
      }
    }
  });
});

describe('Audit: Full Guard tie at zero (lines 79, 342; N30 speaks only of target number 0)', () => {
  it('a 0-dot attack against a 0-dot Full Guard is "equals": the attack is stopped (guarded), not an N30 tie', () => {
    // Mira: sword, Boost 0: [1] = 0 dots. Orin Full Guard: [2] = 0 dots; Advantage rerolls the 2 to a 1: equal dots, kept.
    const start = fight(
      [
        { id: 'a', sheet: sheet() },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    const out = exact(
      start,
      {
        type: 'DeclareExchange',
        attackerId: 'a',
        targetId: 'b',
        kind: 'melee',
        weaponId: 'sword',
        boost: 0,
        response: 'fullGuard',
      },
      { dice: [1, 2], rerollFaces: [1] },
    );
    expect(find(out, 'ExchangeResolved')).toMatchObject({
      outcome: 'guarded',
      winnerId: 'b',
      attacker: { total: 0 },
      responder: { total: 0, reroll: { index: 0, original: 2, kept: 'original' } },
    });
    expect(types(out)).not.toContain('WoundsApplied');
  });
});

describe('Audit: Lingering Harm and Continuation Checks over two rounds (lines 280, 286, 318–330)', () => {
  it('two Bleeding sources on Max VIT 4: round 1 ends at VIT 2 with no check; round 2’s first tick (VIT 1) checks and fails, the second Collapses without a check; round 3 skips it', () => {
    let events = fight(
      [
        { id: 'a', sheet: sheet({ maxVitality: 4, vitals: { strength: 2, agility: 2, resilience: 2 } }) },
        { id: 'b', sheet: sheet() },
      ],
      'a',
    );
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding' });
    events = then(events, { type: 'ApplyLingeringHarm', combatantId: 'a', form: 'Bleeding' });
    events = then(then(events, { type: 'EndActivation' }), { type: 'StartActivation' });
    // Round 1 ends: tick 1 → VIT 3 (2·3 = 6 ≥ 4; 2·1 ≤ 4), tick 2 → VIT 2 (2·2 = 4, not below 4): no check.
    const end1 = exact(events, { type: 'EndActivation' });
    expect(types(end1)).toEqual(['ActivationEnded', 'WoundsApplied', 'WoundsApplied', 'RoundEnded']);
    expect(end1.filter((e) => e.type === 'WoundsApplied').map((e) => (e.data as any).vitality)).toEqual([
      3, 2,
    ]);
    events = [...events, ...end1];
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    events = then(then(events, { type: 'EndActivation' }), { type: 'StartActivation' });
    // Round 2 ends: tick 1 → VIT 1, below half for the first time: check with Resilience 2: [1, 2] = 0 dots, fails.
    // Tick 2 → VIT 0: Collapsed, no check (line 323).
    const end2 = exact(events, { type: 'EndActivation' }, { followUpFaces: [1, 2] });
    expect(types(end2)).toEqual([
      'ActivationEnded',
      'WoundsApplied',
      'ContinuationChecked',
      'WoundsApplied',
      'RoundEnded',
    ]);
    expect(find(end2, 'ContinuationChecked')).toMatchObject({
      triggers: ['belowHalf'],
      dots: 0,
      passed: false,
    });
    expect(end2[3].data).toMatchObject({ vitality: 0, state: 'Collapsed' });
    events = [...events, ...end2];
    const round3 = exact(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    expect(round3[0].data).toMatchObject({ combatantId: 'b', round: 3 });
  });
});

describe('Audit: a combatant joining during an open round (text silent; RULINGS N16 slots it in)', () => {
  it('N49: given a round in which both combatants have acted or are acting, when a late joiner is slotted ahead of them, then the round does not end before it has its activation in that round', () => {
    let events = fight([
      { id: 'a', sheet: sheet() },
      { id: 'b', sheet: sheet() },
    ]).slice(0, 3);
    // a: [3, 3] = 2 dots, b: [3, 1] = 1 dot → order a, b.
    events = then(events, { type: 'RollInitiative' }, { dice: [3, 3, 3, 1] });
    events = then(then(events, { type: 'StartRound' }), { type: 'StartActivation' });
    events = then(events, { type: 'EndActivation' });
    events = then(events, { type: 'StartActivation' });
    expect(stateOf(events).activeId).toBe('b');
    // n joins with [6, 6] = 4 dots: slotted first.
    events = then(
      events,
      { type: 'AddCombatant', combatant: { id: 'n', name: 'N', sheet: sheet() } },
      { dice: [6, 6] },
    );
    expect(stateOf(events).order).toEqual(['n', 'a', 'b']);
    const ended = exact(events, { type: 'EndActivation' });
    // The round does not end; n acts in round 1 after b.
    expect(types(ended)).toEqual(['ActivationEnded']);
    expect(
      given(narateer, [...events, ...ended])
        .when({ type: 'StartActivation' })
        .events()[0].data,
    ).toMatchObject({
      combatantId: 'n',
      round: 1,
    });
  });
});

describe('Audit: Side Rolls of 0 dice and draw numbers (RULINGS.md N15, C5)', () => {
  it('N50: an Agility-0 initiative Side Roll uses up a seeded draw, a Resilience-0 Continuation Check does not', () => {
    const t = new Table([
      { id: 'a', sheet: sheet({ maxVitality: 3, vitals: { strength: 2, agility: 0, resilience: 0 } }) },
      { id: 'b', sheet: sheet({ vitals: { strength: 2, agility: 1, resilience: 2 } }) },
    ]);
    t.run({ type: 'RollInitiative', tieBreak: ['b', 'a'] });
    const rolled = find(t.log, 'InitiativeRolled');
    // a's 0-dice roll is draw 1 (faces []), b's 1-die roll is draw 2.
    expect(rolled.rolls.map((x: { roll: { draw?: number } }) => x.roll.draw)).toEqual([1, 2]);
    // 2 Wounds on Max VIT 3: VIT 1, 2·1 < 3 → a check of Resilience 0 dice: 0 dots, failed, and no draw recorded.
    t.run({ type: 'ApplyWounds', combatantId: 'a', wounds: 2, harm: 'Physical (Impact)' });
    const check = find(t.log, 'ContinuationChecked');
    expect(check).toMatchObject({ dice: 0, dots: 0, passed: false });
    expect(check.roll.draw).toBeUndefined();
  });
});
