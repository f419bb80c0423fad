/**
 * S12, S17: Archsoul's turns run in phases (StartRound, EndTurn, EndPhase). The lifecycle's
 * StartActivation and EndActivation are no Archsoul commands: its contract (what GET /systems/archsoul, OpenAPI and
 * GraphQL publish) does not declare them, and sent anyway they are refused naming `type`, whatever the fight's state.
 * Nor are ActivationStarted and ActivationEnded Archsoul events: its contract leaves them out of the events it
 * publishes, and its StartRound and EndRound say what they do with phases.
 */
import { checkCommand } from '../../src/core/contract';
import { eventSchemasOf, lifecycleCommands } from '../../src/core/lifecycle-contract';
import { RuleCommand } from '../../src/core/types';
import { narateer } from '../../src/narateer';
import { archsoul, ARCHSOUL_CONTRACT, ARCHSOUL_OPTIONS, ARCHSOUL_SHEET } from '../../src/archsoul';
import { TEST_SEED } from '../given';
import { fight, foe, hero, refused, then, types } from './helpers';

const ACTIVATIONS = ['StartActivation', 'EndActivation'];

describe('S17: no activations in Archsoul (archsoul.txt: Turn Order; RULINGS.md S12)', () => {
  it('S17: given the Archsoul contract, then it declares neither StartActivation nor EndActivation, nor does any list a client reads (the system’s commands with its contract’s), while every other lifecycle command stays declared', () => {
    const declared = Object.keys(ARCHSOUL_CONTRACT.commands);
    // GET /systems/archsoul lists the system's described commands together with its contract's.
    const published = new Set([...Object.keys(archsoul.commands), ...declared]);
    for (const type of ACTIVATIONS) {
      expect(declared).not.toContain(type);
      expect(published.has(type)).toBe(false);
    }
    const lifecycle = Object.keys(lifecycleCommands({ sheet: ARCHSOUL_SHEET, options: ARCHSOUL_OPTIONS }));
    expect(lifecycle.filter((t) => !declared.includes(t))).toEqual(ACTIVATIONS);
  });

  it('S17: given a running phase, when StartActivation or EndActivation comes through the edge, then the contract passes it on as a type it does not declare and decide refuses it with ARCHSOUL_USE_PHASES naming type and the phases’ commands', () => {
    const events = fight([hero('a', [0, 0]), foe('v', [0, -4])]);
    for (const type of ACTIVATIONS) {
      const command: RuleCommand = { type, ...(type === 'StartActivation' ? { combatantId: 'a' } : {}) };
      expect(checkCommand(ARCHSOUL_CONTRACT.commands, command)).toBe(command);
      const refusal = refused(events, command);
      expect(refusal).toMatchObject({ code: 'ARCHSOUL_USE_PHASES', field: 'type' });
      expect(refusal.message).toContain(`archsoul has no command ${type}`);
      for (const instead of ['StartRound', 'EndTurn', 'EndPhase']) expect(refusal.message).toContain(instead);
    }
  });

  it('S17: given a reactive attack pending, an ended fight, or a fight between rounds, when StartActivation or EndActivation is sent, then it is refused with ARCHSOUL_USE_PHASES naming type, not as a command that waits or comes too late', () => {
    // a steps out of v's reach and front arc: v's reactive attack is offered and waits (C4).
    const pending = then(fight([hero('a', [0, 0], 'N'), foe('v', [0, -1], 'S')]), {
      type: 'Move',
      combatantId: 'a',
      path: [{ x: -1, y: 0 }],
    });
    expect(types(pending.slice(-2))).toEqual(['ReactiveAttackTriggered', 'ReactiveAttackOffered']);
    const ended = then(fight([hero('a', [0, 0]), foe('v', [0, -4])]), {
      type: 'EndFight',
      revealedSeed: TEST_SEED,
    });
    expect(types(ended.slice(-1))).toEqual(['FightEnded']);
    const betweenRounds = fight([hero('a', [0, 0]), foe('v', [0, -4])], { round: false });
    for (const events of [pending, ended, betweenRounds])
      for (const type of ACTIVATIONS)
        expect(refused(events, { type })).toMatchObject({ code: 'ARCHSOUL_USE_PHASES', field: 'type' });
  });

  it('S17: given the Archsoul contract, then the events it publishes leave out ActivationStarted and ActivationEnded, which it never emits, and keep every other lifecycle event; a system with activations keeps them', () => {
    const published = Object.keys(eventSchemasOf(ARCHSOUL_CONTRACT));
    const withActivations = Object.keys(eventSchemasOf(narateer.contract));
    for (const type of ['ActivationStarted', 'ActivationEnded']) {
      expect(published).not.toContain(type);
      expect(withActivations).toContain(type);
    }
    for (const type of ['FightStarted', 'InitiativeRolled', 'InitiativeSet', 'RoundStarted', 'RoundEnded'])
      expect(published).toContain(type);
  });

  it('S17: given the Archsoul contract, then StartRound and EndRound say what they do with phases, as GET /systems/archsoul lists them, not the shared lifecycle’s words', () => {
    const shared = lifecycleCommands({ sheet: ARCHSOUL_SHEET, options: ARCHSOUL_OPTIONS });
    for (const type of ['StartRound', 'EndRound'] as const) {
      const description = ARCHSOUL_CONTRACT.commands[type].description;
      expect(description).toBe(archsoul.commands[type]);
      expect(description).not.toBe(shared[type].description);
      expect(description).toMatch(/phase/);
    }
  });
});
