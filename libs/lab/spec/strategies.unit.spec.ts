import { FULL_GUARD_COST } from '@app/rules/narateer';
import {
  Answer,
  Declaration,
  NARATEER_STRATEGIES,
  NarateerStrategy,
  narateerLab,
  playFight,
  prepareMatch,
  Threat,
  Turn,
} from '../src';

interface Seen {
  turns: { turn: Turn; made: Declaration | undefined }[];
  answers: { threat: Threat; ready: number; answer: Answer }[];
}

/** Plays `fights` fights of `subject` (row) against `foe` and records every proposal with the state it saw. */
function watch(subject: NarateerStrategy, foe: NarateerStrategy, fights = 60): Seen {
  const seen: Seen = { turns: [], answers: [] };
  const spy: NarateerStrategy = {
    ...subject,
    declare: (turn) => {
      const made = subject.declare(turn);
      seen.turns.push({ turn: { ...turn, declared: [...turn.declared] }, made });
      return made;
    },
    respond: (threat) => {
      const answer = subject.respond(threat);
      seen.answers.push({ threat, ready: threat.me.ad.ready, answer });
      return answer;
    },
  };
  const match = prepareMatch(narateerLab.defaultSheets, 'strategies', 30);
  for (let i = 0; i < fights; i++)
    expect(playFight(match, [spy, foe], `s-${subject.id}-${foe.id}-${i}`, i).illegal).toBe(0);
  return seen;
}

const byId = (id: string) => NARATEER_STRATEGIES.find((s) => s.id === id)!;
const SL = narateerLab.defaultSheets[0].skills as { melee: number };

describe('N14 strategies behave as named', () => {
  it.each(NARATEER_STRATEGIES.map((s) => [s.id]))('%s never proposes what the decider refuses', (id) => {
    for (const foe of NARATEER_STRATEGIES) watch(byId(id), foe, 20);
  });

  it('heavy: one exchange per activation with maximum Boost', () => {
    const { turns } = watch(byId('heavy'), byId('guard'));
    for (const { turn, made } of turns) {
      if (turn.declared.length > 0) expect(made).toBeUndefined();
      else if (made) expect(made.boost).toBe(Math.min(SL.melee, turn.me.ad.ready - 1));
    }
  });

  it('doubleTap: at most two exchanges, their Boost together no more than one heavy strike', () => {
    const { turns } = watch(byId('doubleTap'), byId('heavy'));
    for (const { turn, made } of turns) {
      if (turn.declared.length >= 2) expect(made).toBeUndefined();
      if (made && turn.declared.length === 1)
        expect(turn.declared[0].boost + made.boost).toBeLessThanOrEqual(SL.melee);
    }
    expect(turns.some((t) => t.made && t.turn.declared.length === 1)).toBe(true);
  });

  it('flurry: 1 Boost AD per exchange, until proactive uses or Ready AD run out', () => {
    const { turns } = watch(byId('flurry'), byId('clash'));
    for (const { turn, made } of turns) {
      const usesLeft = SL.melee + 1 - turn.me.uses.melee;
      if (made) expect(made.boost).toBe(Math.min(1, turn.me.ad.ready - 1));
      else
        expect(
          usesLeft === 0 || turn.me.ad.ready < 1 || turn.state.combatants[turn.foe.id].vitality <= 0,
        ).toBe(true);
    }
  });

  it('guard: always answers Full Guard when it has the AD for one', () => {
    const { answers } = watch(byId('guard'), byId('flurry'));
    expect(answers.length).toBeGreaterThan(50);
    for (const { ready, answer } of answers)
      expect(answer.response).toBe(ready >= FULL_GUARD_COST ? 'fullGuard' : 'none');
  });

  it('clash: always answers with a Clash when it can pay its weapon', () => {
    const { answers } = watch(byId('clash'), byId('doubleTap'));
    expect(answers.length).toBeGreaterThan(50);
    for (const { ready, answer } of answers) expect(answer.response).toBe(ready >= 1 ? 'clash' : 'none');
  });
});
