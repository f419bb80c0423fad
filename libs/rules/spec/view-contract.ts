import { z } from 'zod';
import { jsonSchemaOf } from '../src/core/contract';
import { FightCore, RuleCommand, RuleEvent, RuleSystem } from '../src/core/types';
import { RuleViolation } from '../src/core/violation';
import { ManualDice, ManualFaces } from '../src/dice/manual';
import { SeededDice } from '../src/dice/seeded';
import { TEST_SEED } from './given';

/** What the view-contract specs of the systems share: fights played as the service plays them, views parsed strictly. */
export const FIGHT_ID = 'f1';

export type Step = RuleCommand | [RuleCommand, ManualFaces];

/** The history after `steps`, each decided on the folded history (its manual faces, or seeded dice in a seeded fight); a refusal fails naming the step. */
export function play(system: RuleSystem, history: RuleEvent[], steps: Step[]): RuleEvent[] {
  const events = [...history];
  let draws = 0;
  for (const step of steps) {
    const [command, faces] = Array.isArray(step) ? step : [step, {}];
    const state = events.reduce(system.evolve, system.start(FIGHT_ID));
    const dice =
      state.dice.mode === 'seeded'
        ? new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: draws })
        : new ManualDice(faces);
    try {
      events.push(...system.decide(state, command, dice));
    } catch (e) {
      if (e instanceof RuleViolation)
        throw new Error(`${JSON.stringify(command)} was refused: ${e.code} ${e.message}`, { cause: e });
      throw e;
    }
    if (dice instanceof SeededDice) draws = dice.drawsUsed;
  }
  return events;
}

/**
 * The views after each event, as the service sends them (with `seq` and `headHash`), parsed strictly against the
 * declaration `name` (and unchanged by it).
 */
export function viewsParser<S extends FightCore, V>(
  system: RuleSystem,
  declaration: z.ZodType<V>,
  name: string,
  view: (state: S) => object,
): (events: RuleEvent[]) => V[] {
  return (events) => {
    let state = system.start(FIGHT_ID);
    return events.map((event, i) => {
      state = system.evolve(state, event);
      const sent = { ...view(state as S), seq: i + 1, headHash: (i + 1).toString(16).padStart(64, '0') };
      const parsed = declaration.safeParse(sent);
      if (!parsed.success)
        throw new Error(
          `the view after event ${i + 1} (${event.type}) breaks ${name}:\n${z.prettifyError(parsed.error)}`,
        );
      expect(parsed.data).toEqual(sent);
      return parsed.data;
    });
  };
}

/** The JSON Schema a view declaration publishes (what OpenAPI types the view by). */
export const publishedSchema = (declaration: z.ZodType) =>
  jsonSchemaOf(declaration, 'openapi-3.0') as {
    additionalProperties?: boolean;
    required?: string[];
    properties: Record<string, { description?: string }>;
  };
