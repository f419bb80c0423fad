import {
  checkCommand,
  FightCore,
  narateer,
  RuleCommand,
  RuleSystem,
  RuleViolation,
  seedCommitment,
} from '@app/rules';
import { decideCommand, needsOf, recordedCommand, sealEvents } from '../src/command-core';
import { LogEntry } from '../src/fight-event';
import { blankFight, evolveFight, FoldedFight, foldLog } from '../src/fold';
import { eventHash, GENESIS_HASH } from '../src/hash-chain';
import { undoStackOf } from '../src/undo';

const system = narateer as unknown as RuleSystem<FightCore>;
const SEED = 'core-seed';
const sword = {
  id: 'sword',
  name: 'Arming sword',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Slashing)',
};
const fighter = (id: string) => ({
  id,
  name: id,
  side: id,
  sheet: {
    vitals: { strength: 2, agility: 2, resilience: 2 },
    skills: { melee: 2, ranged: 1, acrobatics: 1 },
    maxVitality: 60,
    maxAD: 5,
    maxMD: 1,
    weapons: [sword],
    armour: { soak: 1 },
  },
});

/** A fight played with the core alone, as the service plays it: decide, seal, evolve (an undo folds the log again). */
class Table {
  fight: FoldedFight;
  readonly log: LogEntry[] = [];
  private commands = 0;

  constructor(mode: 'fair' | 'seeded' | 'manual') {
    this.fight = blankFight(system, 'fight-core');
    this.send({
      type: 'StartFight',
      name: 'Core',
      dice: { mode, commitment: seedCommitment(SEED) },
      combatants: [fighter('mira'), fighter('orin')],
    });
  }

  decide(command: RuleCommand) {
    return decideCommand(this.fight, command, { seed: SEED, undo: undoStackOf(this.log) });
  }

  send(command: RuleCommand): LogEntry[] {
    const sealed = sealEvents(this.fight, this.decide(command), {
      commandId: `c${++this.commands}`,
      actor: 'gm',
      at: '2026-01-01T00:00:00.000Z',
      command,
    });
    this.log.push(...sealed);
    this.fight = evolveFight(this.fight, sealed) ?? foldLog(system, this.fight.fightId, this.log);
    return sealed;
  }
}

function refusal(run: () => unknown): RuleViolation {
  try {
    run();
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error('expected a RuleViolation');
}

describe('the command core: decide with the fight’s dice, seal onto the hash chain, fold with undo', () => {
  it('given a seeded fight, when a command carries faces, then it is refused DICE_NOT_MANUAL naming the field (RULINGS.md C2)', () => {
    const t = new Table('seeded');
    expect(refusal(() => t.decide({ type: 'RollInitiative', rerollFaces: [3] }))).toMatchObject({
      code: 'DICE_NOT_MANUAL',
      field: 'rerollFaces',
    });
  });

  it('given a manual fight, when a command carries a face it does not roll, then it is refused DICE_MANUAL_FACES_EXTRA (RULINGS.md C6)', () => {
    const t = new Table('manual');
    expect(
      refusal(() => t.decide({ type: 'RollInitiative', dice: [6, 5, 4, 1, 2, 3, 3, 3, 3, 3, 3, 3] })),
    ).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA' });
  });

  it('given seeded dice, when a command rolls, then the draws it used are counted on, and the same seed draws the same faces (RULINGS.md C5)', () => {
    const [a, b] = [new Table('seeded'), new Table('seeded')];
    const rolled = a.send({ type: 'RollInitiative' });
    expect(rolled[0].drawsUsed).toBeGreaterThan(0);
    expect(a.fight.drawsUsed).toBe(rolled[0].drawsUsed);
    expect(b.send({ type: 'RollInitiative' })).toEqual(rolled);
  });

  it('given sealed events, then each hash follows from the one before from genesis, and the command rides on the first without revealedSeed', () => {
    const t = new Table('fair');
    t.send({ type: 'AddNote', text: 'a note' });
    let previous = GENESIS_HASH;
    for (const e of t.log) {
      const { hash, drawsUsed: _d, command: _c, ...event } = e;
      expect(hash).toBe(eventHash(previous, event));
      previous = hash;
    }
    const ended = t.send({ type: 'EndFight' });
    expect(ended[0].type).toBe('FightEnded');
    expect(ended[0].data.seed).toBe(SEED);
    expect(ended[0].command).toEqual({ type: 'EndFight' });
    expect(recordedCommand({ type: 'UndoCommands', count: 1, dice: [] })).toEqual({
      type: 'UndoCommands',
      count: 1,
    });
  });

  it('given an undo (RULINGS.md C5), then it takes back the last command, evolving stops at it, and folding the log gives the state before the command', () => {
    const t = new Table('fair');
    const before = t.fight.state;
    t.send({ type: 'AddNote', text: 'taken back' });
    expect(needsOf(t.fight, { type: 'UndoCommands', count: 1 })).toEqual({ seed: false, undo: true });
    const [undo] = t.send({ type: 'UndoCommands', count: 1 });
    expect(undo).toMatchObject({ type: 'ActionsUndone', data: { count: 1, undone: [{ commandId: 'c2' }] } });
    expect(evolveFight(foldLog(system, 'fight-core', t.log.slice(0, -1)), [undo])).toBeUndefined();
    expect(t.fight.state).toEqual(before);
    expect(t.fight).toMatchObject({ seq: t.log.length, headHash: undo.hash });
  });

  it('given a command the edge checked against the contract, when the core decides it, then its decider reads that parse and does not parse it again', () => {
    const t = new Table('fair');
    t.send({ type: 'RollInitiative' });
    t.send({ type: 'StartRound' });
    t.send({ type: 'StartActivation' });
    const attacker = t.fight.state.activeId!;
    const command: RuleCommand = {
      type: 'DeclareExchange',
      attackerId: attacker,
      targetId: attacker === 'mira' ? 'orin' : 'mira',
      kind: 'melee',
      weaponId: 'sword',
      boost: 0,
      response: 'none',
    };
    const schema = system.contract.commands.DeclareExchange;
    const parse = jest.spyOn(schema, 'safeParse');
    try {
      checkCommand(system.contract.commands, command);
      expect(t.decide(command).events.length).toBeGreaterThan(0);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});
