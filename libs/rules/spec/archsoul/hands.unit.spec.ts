import { validateSheet } from '../../src/archsoul';
import { view } from '../../src/archsoul/view';
import { RuleEvent } from '../../src/core/types';
import { exact, fight, find, foe, hero, refused, sheet, stateOf, sword, then, types } from './helpers';

const greatsword = { id: 'greatsword', name: 'Greatsword', type: 'melee', damage: 3, twoHanded: true };
const dagger = { id: 'dagger', name: 'Dagger', type: 'melee', damage: 1, handling: 'light' };
const claws = { id: 'claws', name: 'Claws', type: 'unarmed', damage: 1 };
const buckler = { id: 'buckler', name: 'Buckler', bonus: 2 };
const viewOf = (events: RuleEvent[], id: string) =>
  view(stateOf(events)).combatants.find((x) => x.id === id)!;

describe('S51: Two hands (archsoul.txt: "a one-handed weapon", "Draw a two-handed weapon", "your other hand", Grab "with an empty hand")', () => {
  it('S51: a sheet starts with the first weapon, then the shield, then the other weapons while hands are free; items stay stowed', () => {
    const big = validateSheet(
      sheet({ weapons: [greatsword, dagger], shield: buckler, items: [{ id: 'rope', name: 'Rope' }] }),
      's',
    );
    expect([big.weapons.map((w) => w.held), big.shield!.held, big.items[0].held]).toEqual([
      [true, false],
      false,
      false,
    ]);
    const knight = validateSheet(sheet({ weapons: [sword, dagger], shield: buckler }), 's');
    expect([knight.weapons.map((w) => w.held), knight.shield!.held]).toEqual([[true, false], true]);
    // Worn unarmed weapons fill no hand (archsoul.txt: Unarmed: "conforms to your body like a gauntlet or claws").
    const beast = validateSheet(sheet({ weapons: [claws, sword, dagger] }), 's');
    expect(beast.weapons.map((w) => w.held)).toEqual([true, true, true]);
    const events = fight([hero('a', [0, 0], 'N', { weapons: [greatsword, dagger], shield: buckler })]);
    expect(viewOf(events, 'a')).toMatchObject({
      held: ['greatsword'],
      hands: ['greatsword', 'greatsword'],
      freeHands: 0,
      shieldBonus: 0,
    });
  });

  it('S51: a sheet holding more than two hands can is refused, naming the field that does not fit', () => {
    const over = () =>
      validateSheet(
        sheet({ weapons: [{ ...greatsword, held: true }], shield: { ...buckler, held: true } }),
        's',
      );
    expect(over).toThrow(
      expect.objectContaining({
        code: 'INVALID_FIELD',
        field: 's.shield.held',
        message: expect.stringContaining('Greatsword (two-handed) already fills both hands'),
      }),
    );
    const three = () =>
      validateSheet(
        sheet({
          weapons: [
            { ...sword, held: true },
            { ...dagger, held: true },
            { ...dagger, id: 'knife', held: true },
          ],
        }),
        's',
      );
    expect(three).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', field: 's.weapons[2].held' }));
    // What is said comes first; the rest fills what is left in the same order (the sword; no hand left for the shield).
    const said = validateSheet(sheet({ weapons: [sword, { ...dagger, held: true }], shield: buckler }), 's');
    expect([said.weapons.map((w) => w.held), said.shield!.held]).toEqual([[true, true], false]);
    const shieldFirst = validateSheet(
      sheet({ weapons: [sword, dagger], shield: { ...buckler, held: true } }),
      's',
    );
    expect([shieldFirst.weapons.map((w) => w.held), shieldFirst.shield!.held]).toEqual([[true, false], true]);
  });

  it('S51: with both hands full nothing more is drawn, equipped or picked up; dropping frees the hands', () => {
    // The review's case: a greatsword in both hands, then a dagger (1 AP) and a shield (2 AP).
    let events = fight([
      hero('a', [0, 0], 'N', { weapons: [greatsword, dagger], shield: buckler }),
      foe('v', [0, -4]),
    ]);
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'dagger' })).toMatchObject({
      code: 'ARCHSOUL_HANDS_FULL',
      field: 'itemId',
      message: expect.stringContaining('Greatsword (both hands)'),
    });
    expect(refused(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' })).toMatchObject({
      code: 'ARCHSOUL_HANDS_FULL',
      field: 'itemId',
    });
    events = then(events, { type: 'DropItem', combatantId: 'a', itemId: 'greatsword' });
    expect(viewOf(events, 'a')).toMatchObject({ hands: [null, null], freeHands: 2 });
    events = then(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'dagger' });
    events = then(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' });
    expect(viewOf(events, 'a')).toMatchObject({
      held: ['dagger', 'buckler'],
      hands: ['dagger', 'buckler'],
      freeHands: 0,
      shieldBonus: 2,
    });
    // The greatsword lies at a's feet; picking it up needs both hands (next turn: AP).
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' })).toMatchObject({
      code: 'ARCHSOUL_HANDS_FULL',
      field: 'groundId',
      message: expect.stringContaining('needs both hands'),
    });
    events = then(then(events, { type: 'DropItem', combatantId: 'a', itemId: 'dagger' }), {
      type: 'DropItem',
      combatantId: 'a',
      itemId: 'buckler',
    });
    // Draw Simple Item either draws an item "or" picks one up: naming both is refused, not half ignored.
    expect(
      refused(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1', itemId: 'dagger' }),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'itemId' });
    events = then(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' });
    expect(viewOf(events, 'a')).toMatchObject({ hands: ['greatsword', 'greatsword'], shieldBonus: 0 });
  });

  it('S51: Grab needs an empty hand: a sword and a shield fill both, worn claws none', () => {
    const full = fight([hero('a', [0, 0], 'N', { shield: buckler }), foe('v', [0, -1], 'N')]);
    expect(refused(full, { type: 'Grab', combatantId: 'a', targetId: 'v' })).toMatchObject({
      code: 'ARCHSOUL_GRAB_NO_EMPTY_HAND',
      field: 'combatantId',
      message: expect.stringContaining('Sword and Buckler'),
    });
    const clawed = fight([hero('a', [0, 0], 'N', { weapons: [claws, sword] }), foe('v', [0, -1], 'N')]);
    expect(
      types(exact(clawed, { type: 'Grab', combatantId: 'a', targetId: 'v' }, { dice: [4, 4, 1, 4, 1, 1] })),
    ).toContain('GrappleStarted');
  });

  it('S51: a thrown item leaves its hand empty', () => {
    const javelin = {
      id: 'javelin',
      name: 'Javelin',
      type: 'thrown',
      damage: 2,
      accurateRange: 3,
      maximumRange: 6,
    };
    let events = fight([hero('a', [0, 0], 'N', { weapons: [javelin, sword] }), foe('v', [0, -3])]);
    expect(viewOf(events, 'a').hands).toEqual(['javelin', 'sword']);
    events = then(
      events,
      { type: 'ThrowItem', combatantId: 'a', itemId: 'javelin', targetId: 'v' },
      { dice: [4, 4, 4, 2, 2, 2, 2, 2] },
    );
    expect(viewOf(events, 'a')).toMatchObject({ hands: [null, 'sword'], freeHands: 1 });
  });
});

describe('S52: How a thing is drawn (archsoul.txt: Draw Simple Item, Draw Awkward Item)', () => {
  const stowed = {
    weapons: [
      sword,
      { ...greatsword, held: false },
      {
        id: 'spear',
        name: 'Spear',
        type: 'melee',
        damage: 2,
        reach: 2,
        twoHanded: true,
        properties: ['spear'],
        held: false,
      },
    ],
    shield: { ...buckler, held: false },
  };
  const unarmed = (events: RuleEvent[]) =>
    then(events, { type: 'DropItem', combatantId: 'a', itemId: 'sword' });

  it('S52: a two-handed weapon takes Draw Awkward Item (2 AP); a spear wielded two-handed is drawn simply (1 AP)', () => {
    const events = unarmed(fight([hero('a', [0, 0], 'N', stowed)]));
    expect(refused(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'greatsword' })).toMatchObject(
      {
        code: 'ARCHSOUL_AWKWARD_ITEM',
        field: 'itemId',
        message: expect.stringContaining('"Draw a two-handed weapon": Greatsword is two-handed'),
      },
    );
    const drawn = exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'greatsword' });
    expect(find(drawn, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2 });
    const spear = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'spear' });
    expect(find(spear, 'ApSpent')).toMatchObject({ action: 'drawSimpleItem', ap: 1 });
    expect(viewOf([...events, ...spear], 'a').hands).toEqual(['spear', 'spear']);
  });

  it('S52: a shield is equipped with Draw Awkward Item, and the refusal says so', () => {
    const events = fight([hero('a', [0, 0], 'N', stowed)]);
    const v = refused(events, { type: 'DrawSimpleItem', combatantId: 'a', itemId: 'buckler' });
    expect(v).toMatchObject({
      code: 'ARCHSOUL_AWKWARD_ITEM',
      field: 'itemId',
      message: expect.stringContaining('"equip a shield": Buckler is a shield'),
    });
    expect(v.message).not.toContain('two-handed');
    expect(types(exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' }))).toEqual([
      'ApSpent',
      'ItemDrawn',
    ]);
  });

  it('S52: a shield picked up from the ground is carried, not equipped: equipping it is Draw Awkward Item', () => {
    let events = fight([hero('a', [0, 0], 'N', { shield: buckler }), foe('v', [0, -4])]);
    events = then(events, { type: 'DropItem', combatantId: 'a', itemId: 'buckler' });
    const picked = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: 'g1' });
    expect(find(picked, 'ItemDrawn')).toMatchObject({ itemId: 'buckler', from: 'ground' });
    events = [...events, ...picked];
    expect(viewOf(events, 'a')).toMatchObject({ held: ['sword'], freeHands: 1, shieldBonus: 0 });
    expect(stateOf(events).ground).toEqual([]);
    const equipped = exact(events, { type: 'DrawAwkwardItem', combatantId: 'a', itemId: 'buckler' });
    expect(find(equipped, 'ApSpent')).toMatchObject({ action: 'drawAwkwardItem', ap: 2, apLeft: 0 });
    expect(viewOf([...events, ...equipped], 'a')).toMatchObject({
      hands: ['sword', 'buckler'],
      shieldBonus: 2,
    });
  });

  it('S52: stowage is derived from twoHanded; simple for a two-handed weapon that is not a spear is refused', () => {
    const s = validateSheet(
      sheet({
        weapons: [greatsword, { ...dagger, stowage: 'awkward' }],
        items: [{ id: 'chest', name: 'Chest', twoHanded: true }],
      }),
      's',
    );
    expect([s.weapons.map((w) => w.stowage), s.items[0].stowage]).toEqual([
      ['awkward', 'awkward'],
      'awkward',
    ]);
    expect(() => validateSheet(sheet({ weapons: [{ ...greatsword, stowage: 'simple' }] }), 's')).toThrow(
      expect.objectContaining({ code: 'INVALID_FIELD', field: 's.weapons[0].stowage' }),
    );
    expect(
      validateSheet(sheet({ weapons: [{ ...greatsword, properties: ['spear'] }] }), 's').weapons[0].stowage,
    ).toBe('simple');
  });
});

describe('S60: picking up another combatant’s item (archsoul.txt: Draw Simple Item: "pick an item up from the ground")', () => {
  /** v fumbles (melee 2: "Weapon slips and lands at target's feet"): its sword lies in a's space; a's turn opens. */
  const dropped = () => {
    let events = fight([foe('v', [0, -1], 'S'), hero('a', [0, 0], 'N', { weapons: [greatsword] })]);
    events = then(
      events,
      { type: 'Attack', attackerId: 'v', targetId: 'a', weaponId: 'sword' },
      { dice: [1, 1, 1, 2], followUpFaces: [2] },
    );
    return then(events, { type: 'EndTurn', combatantId: 'v' });
  };

  it('S60: 1 AP, it triggers reactive attacks like any pick-up, and the item is carried like a stolen one', () => {
    let events = then(dropped(), { type: 'DropItem', combatantId: 'a', itemId: 'greatsword' });
    const ground = stateOf(events).ground.find((g) => g.ownerId === 'v')!;
    const out = exact(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: ground.groundId });
    expect(types(out)).toEqual(['ApSpent', 'ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    expect(find(out, 'ApSpent')).toMatchObject({ action: 'drawSimpleItem', ap: 1 });
    events = then([...events, ...out], { type: 'DeclineReactiveAttack', combatantId: 'v' });
    const taken = exact(events, { type: 'ResumeAction', combatantId: 'a' });
    expect(find(taken, 'ItemTaken')).toEqual({
      combatantId: 'a',
      fromId: 'v',
      itemId: 'sword',
      name: 'Sword',
      groundId: ground.groundId,
    });
    const after = stateOf([...events, ...taken]);
    expect(after.ground.some((g) => g.groundId === ground.groundId)).toBe(false);
    expect(after.combatants.a).toMatchObject({ stolen: [{ itemId: 'sword', fromId: 'v', name: 'Sword' }] });
    expect(after.combatants.a.hands).toEqual([null, null]);
    expect(after.combatants.v.away).toContain('sword');
  });

  it('S60: it needs the hands the item needs on its owner’s sheet', () => {
    const events = dropped();
    const ground = stateOf(events).ground.find((g) => g.ownerId === 'v')!;
    expect(
      refused(events, { type: 'DrawSimpleItem', combatantId: 'a', groundId: ground.groundId }),
    ).toMatchObject({ code: 'ARCHSOUL_HANDS_FULL', field: 'groundId' });
  });
});
