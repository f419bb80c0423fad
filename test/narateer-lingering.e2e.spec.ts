import { useApp } from './support/app';
import { overRest } from './support/fight-calls';
import { sword } from './support/narateer-sheets';

/** Lingering Harm with a source's own terms, the wounded's choice on a tick, and a late joiner after the GM's order, through REST. */

const sheet = (extra: Record<string, unknown> = {}) => ({
  vitals: { strength: 2, agility: 2, resilience: 2 },
  skills: { melee: 1 },
  maxVitality: 20,
  maxAD: 4,
  maxMD: 2,
  weapons: [sword],
  ...extra,
});

type Event = { type: string; data: any };
const types = (events: Event[]) => events.map((e) => e.type);

describe('Narateer Lingering Harm and the late joiner through REST (RULINGS N28, N38–N40)', () => {
  const t = useApp();

  async function rest() {
    const combatants = [
      { id: 'orin', name: 'Orin', sheet: sheet({ woundPreference: 'ASK' }) },
      { id: 'mira', name: 'Mira', sheet: sheet() },
    ];
    const { fightId, send, refuse } = await overRest(t, {
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants,
    });
    return { fightId, send, refused: refuse };
  }

  it('a source’s timing, duration and count, a refresh, the ASK choice on a tick holding the round’s end, a late joiner placed by the GM; the log verifies', async () => {
    const { fightId, send, refused } = await rest();
    await send({ type: 'SetInitiative', order: ['orin', 'mira'] });
    // N40: the GM set the order, so the newcomer's Side Roll (2 dots) does not put it first: the GM is asked.
    const joined = await send({
      type: 'AddCombatant',
      combatant: { id: 'cole', name: 'Cole', sheet: sheet() },
      dice: [6, 1],
    });
    expect(joined.view.pending).toMatchObject({
      kind: 'initiativeTie',
      awaiting: 'gm',
      answer: 'SetInitiative',
    });
    expect((await refused({ type: 'StartRound' })).code).toBe('PENDING_DECISION');
    expect((await send({ type: 'SetInitiative', order: ['orin', 'cole', 'mira'] })).view).toMatchObject({
      pending: null,
      initiative: ['orin', 'cole', 'mira'],
    });

    await send({ type: 'StartRound' });
    // N38: a source's own terms; N39: the same source again is the same instance.
    const poison = await send({
      type: 'ApplyLingeringHarm',
      combatantId: 'orin',
      form: 'Poisoned',
      source: 'spider',
      tick: 'activationEnd',
      endsAfterTicks: 1,
      allocation: ['MD'],
    });
    expect(poison.events[0].data).toMatchObject({
      lingeringHarmId: 'lh1',
      tick: 'activationEnd',
      ticksLeft: 1,
      allocation: ['MD'],
    });
    await send({
      type: 'ApplyLingeringHarm',
      combatantId: 'orin',
      form: 'Burning',
      source: 'torch',
      rounds: 1,
      endsWhen: 'doused',
    });
    const again = await send({
      type: 'ApplyLingeringHarm',
      combatantId: 'orin',
      form: 'Burning',
      source: 'torch',
      rounds: 1,
      wounds: 2,
    });
    expect(again.events[0].data).toMatchObject({ lingeringHarmId: 'lh2', wounds: 2, refreshed: true });
    expect(
      again.view.combatants[0].lingeringHarm.map((l: any) => [
        l.id,
        l.tick,
        l.untilRound,
        l.ticksLeft,
        l.endsWhen,
      ]),
    ).toEqual([
      ['lh1', 'activationEnd', null, 1, null],
      ['lh2', 'roundEnd', 1, null, 'doused'],
    ]);
    expect(
      (await refused({ type: 'ApplyLingeringHarm', combatantId: 'orin', form: 'Burning', tick: 'dusk' }))
        .field,
    ).toBe('tick');

    await send({ type: 'StartActivation' });
    const orinEnds = await send({ type: 'EndActivation' });
    expect(types(orinEnds.events)).toEqual(['ActivationEnded', 'WoundsApplied', 'LingeringHarmEnded']);
    expect(orinEnds.events[1].data).toMatchObject({
      lingeringHarmId: 'lh1',
      dice: [{ kind: 'MD', from: 'ready' }],
    });
    expect(orinEnds.events[2].data).toMatchObject({ lingeringHarmId: 'lh1', reason: 'ticks' });
    await send({ type: 'StartActivation' });
    await send({ type: 'EndActivation' });
    await send({ type: 'StartActivation' });
    // N28: Orin (ASK) chooses where the Burning's 2 Wounds go; the round's end waits for it.
    const held = await send({ type: 'EndActivation' });
    expect(types(held.events)).toEqual(['ActivationEnded', 'WoundAllocationRequested']);
    expect(held.view).toMatchObject({
      roundOpen: true,
      pending: { kind: 'woundAllocation', awaiting: 'orin' },
    });
    expect((await refused({ type: 'AllocateWounds', combatantId: 'orin', allocation: ['AD'] })).code).toBe(
      'NARATEER_ALLOCATION_LENGTH',
    );
    const answered = await send({ type: 'AllocateWounds', combatantId: 'orin', allocation: ['MD', 'AD'] });
    expect(types(answered.events)).toEqual(['WoundsApplied', 'LingeringHarmEnded', 'RoundEnded']);
    expect(answered.events[1].data).toMatchObject({ lingeringHarmId: 'lh2', reason: 'rounds' });
    expect(answered.view.combatants[0]).toMatchObject({ vitality: 17, lingeringHarm: [] });

    const log = (await t.http.get(`/fights/${fightId}/log`).expect(200)).body;
    expect((await t.http.post('/audit/verify').send(log).expect(200)).body).toMatchObject({
      ok: true,
      checks: { decisions: { status: 'ok' } },
    });
  });

  it('GET /systems/narateer lists the rulings N38–N40 and the revised N28', async () => {
    const rulings = (await t.http.get('/systems/narateer').expect(200)).body.rulings as Array<{
      id: string;
      text: string;
    }>;
    expect(rulings.map((r) => r.id)).toEqual(expect.arrayContaining(['N38', 'N39', 'N40']));
    expect(rulings.find((r) => r.id === 'N28')!.text).toMatch(/tick for ASK asks/);
  });
});
