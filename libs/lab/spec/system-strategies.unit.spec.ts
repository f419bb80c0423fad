import { RuleCommand } from '@app/rules';
import { distance } from '@app/rules/archsoul';
import {
  ARCANA_BEAST_STRATEGIES,
  ARCHSOUL_STRATEGIES,
  arcanaBeastLab,
  archsoulLab,
  ArcanaStrategy,
  ArcanaTurn,
  ArchsoulStrategy,
  ArchsoulTurn,
  playArcanaFight,
  playArchsoulFight,
  prepareArcanaMatch,
  prepareArchsoulMatch,
} from '../src';

type Seen<T> = { turn: T; made: RuleCommand | undefined }[];

/** Plays fights of `subject` (row) against each strategy and records every proposal with the view it saw; none is refused. */
function watchArcana(id: string, fights = 8): Seen<ArcanaTurn> {
  const subject = ARCANA_BEAST_STRATEGIES.find((s) => s.id === id)!;
  const seen: Seen<ArcanaTurn> = [];
  const spy: ArcanaStrategy = {
    ...subject,
    next: (turn) => {
      const made = subject.next(turn);
      seen.push({ turn, made });
      return made;
    },
  };
  const match = prepareArcanaMatch(arcanaBeastLab.defaultSheets, 'behaviour', 30);
  for (const foe of ARCANA_BEAST_STRATEGIES)
    for (let i = 0; i < fights; i++)
      expect(playArcanaFight(match, [spy, foe], `b-${id}-${foe.id}-${i}`, i).illegal).toBe(0);
  return seen;
}

function watchArchsoul(id: string, fights = 4): Seen<ArchsoulTurn> {
  const subject = ARCHSOUL_STRATEGIES.find((s) => s.id === id)!;
  const seen: Seen<ArchsoulTurn> = [];
  const spy: ArchsoulStrategy = {
    ...subject,
    next: (turn) => {
      const made = subject.next(turn);
      seen.push({ turn, made });
      return made;
    },
  };
  const match = prepareArchsoulMatch(archsoulLab.defaultSheets, 'behaviour', 30);
  for (const foe of ARCHSOUL_STRATEGIES)
    for (let i = 0; i < fights; i++)
      expect(playArchsoulFight(match, [spy, foe], `b-${id}-${foe.id}-${i}`, i).illegal).toBe(0);
  return seen;
}

/** The Binder's Command proposals: made while no Command was given yet and the Binder could give one. */
const commands = (seen: Seen<ArcanaTurn>) =>
  seen.filter(
    ({ turn, made }) =>
      turn.turn.command === undefined &&
      made &&
      ['Direct', 'Strategize', 'BondSurge', 'Encourage'].includes(made.type),
  );

describe('Arcana Beast strategies behave as named (arcana-beast.txt: Beast Binder Commands)', () => {
  it('surge: "Bond Surge: Boost on ALL rolls this turn, costs 1 Stamina" every turn while the beast has Stamina, else Direct', () => {
    const made = commands(watchArcana('surge'));
    expect(made.length).toBeGreaterThan(20);
    for (const { turn, made: c } of made) expect(c!.type).toBe(turn.me.stamina >= 1 ? 'BondSurge' : 'Direct');
  });

  it('saver: Direct, and Bond Surge only when the foe’s HP is no more than the beast’s Base Damage', () => {
    const made = commands(watchArcana('saver'));
    for (const { turn, made: c } of made)
      expect(c!.type).toBe(
        turn.me.stamina >= 1 && turn.foe.hp <= turn.me.baseDamage ? 'BondSurge' : 'Direct',
      );
    expect(made.some(({ made: c }) => c!.type === 'BondSurge')).toBe(true);
  });

  it.each([
    ['director', 'Direct'],
    ['strategist', 'Strategize'],
    ['guardian', 'Encourage'],
    ['hunter', 'Direct'],
  ])('%s gives the %s Command every turn its Binder can', (id, type) => {
    const made = commands(watchArcana(id, 4));
    expect(made.length).toBeGreaterThan(10);
    for (const { made: c } of made) expect(c!.type).toBe(type);
  });

  it('guardian: "Defend: Boost on all Dodge rolls until next turn" once its HP is at half or less, an attack before', () => {
    const actions = watchArcana('guardian').filter(
      ({ made }) => made && ['Defend', 'Attack', 'UseSpecialAttack'].includes(made.type),
    );
    for (const { turn, made } of actions)
      expect(made!.type === 'Defend').toBe(turn.me.hp * 2 <= turn.me.maxHp);
    expect(actions.some(({ made }) => made!.type === 'Defend')).toBe(true);
  });

  it('hunter: attacks the foe’s Binder while it stands ("If beastbinder is targeted Arcana Beast can intercept")', () => {
    const attacks = watchArcana('hunter', 4).filter(
      ({ made }) => made && (made.type === 'Attack' || made.type === 'UseSpecialAttack'),
    );
    expect(attacks.length).toBeGreaterThan(10);
    for (const { turn, made } of attacks)
      expect(made!.targetId).toBe(turn.foeBinder?.state === 'Active' ? turn.foeBinder.id : turn.foe.id);
  });
});

describe('Archsoul strategies behave as named (archsoul.txt: The Action Economy, Maneuvers)', () => {
  it('reckless: every attack it starts with 3 AP is a Reckless Attack (3 AP), with a two-handed weapon', () => {
    const attacks = watchArchsoul('reckless').filter(({ made }) => made?.type === 'Attack');
    expect(attacks.length).toBeGreaterThan(10);
    for (const { turn, made } of attacks) {
      if (turn.me.ap === 3) expect(made!.special).toBe('reckless');
      expect(turn.sheet.weapons.find((w) => w.id === made!.weaponId)?.twoHanded).toBe(true);
    }
  });

  it('swordAndShield: attacks only with a one-handed weapon and the shield in hand', () => {
    const attacks = watchArchsoul('swordAndShield').filter(({ made }) => made?.type === 'Attack');
    expect(attacks.length).toBeGreaterThan(10);
    for (const { turn, made } of attacks) {
      expect(turn.me.held).toContain(turn.sheet.shield!.id);
      expect(turn.sheet.weapons.find((w) => w.id === made!.weaponId)?.twoHanded).toBe(false);
    }
  });

  it('spearman: with its reach-2 weapon in hand and the foe adjacent at the start of a turn, it steps back (Slow Move) first', () => {
    const seen = watchArchsoul('spearman');
    const close = seen.filter(
      ({ turn }) =>
        turn.me.ap === 3 &&
        turn.me.held.includes('spear') &&
        distance(turn.view.map.grid, turn.me.position!, turn.foe.position!) === 1 &&
        turn.me.hasFrontArc,
    );
    const stepped = close.filter(({ made }) => made?.type === 'SlowMove');
    expect(stepped.length).toBeGreaterThan(0);
    expect(
      seen.filter(({ made }) => made?.type === 'Attack').every(({ made }) => made!.weaponId === 'spear'),
    ).toBe(true);
  });

  it('grappler: "Grab (2 AP)", then the grapple’s "Attack (1 AP)" while grappling; never a weapon attack', () => {
    const seen = watchArchsoul('grappler');
    expect(seen.some(({ made }) => made?.type === 'Grab')).toBe(true);
    expect(seen.some(({ made }) => made?.type === 'GrappleAttack')).toBe(true);
    expect(seen.some(({ made }) => made?.type === 'Attack')).toBe(false);
  });

  it('charger: "Charge (3 AP)" mounted with a lance, only with 3 AP and a path of at least 3 spaces', () => {
    const charges = watchArchsoul('charger').filter(({ made }) => made?.type === 'Charge');
    expect(charges.length).toBeGreaterThan(0);
    for (const { turn, made } of charges) {
      expect(turn.me.mounted).toBe(true);
      expect(turn.me.ap).toBe(3);
      expect((made!.path as unknown[]).length).toBeGreaterThanOrEqual(3);
      expect(made!.weaponId).toBe('lance');
    }
  });
});
