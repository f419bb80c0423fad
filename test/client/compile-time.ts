/**
 * Compile-time checks of the typed client, run by `npm run typecheck` (tsc --strict): every line marked
 * @ts-expect-error must fail to compile, so a misspelt command type or field, or a wrong field type, is
 * caught before it is sent. (Nothing here runs.)
 */
import type {
  ArchsoulCommand,
  ArchsoulEvent,
  CombatClient,
  NarateerCommand,
  NarateerEvent,
} from '../../clients/typescript/src';

export function misspelt(client: CombatClient, id: string): void {
  const ok: NarateerCommand = {
    type: 'DeclareExchange',
    attackerId: 'mira',
    targetId: 'orin',
    kind: 'melee',
    weaponId: 'sword',
    boost: 2,
  };
  void client.command('narateer', id, ok);
  // Each expected error stays on one line (@ts-expect-error covers the next line only), hence prettier-ignore.
  // prettier-ignore
  // @ts-expect-error a misspelt command type
  void client.command('narateer', id, { type: 'DeclareExchnage', attackerId: 'mira', targetId: 'orin', kind: 'melee', weaponId: 'sword' });
  // prettier-ignore
  // @ts-expect-error a misspelt field (boots for boost)
  void client.command('narateer', id, { type: 'DeclareExchange', attackerId: 'mira', targetId: 'orin', kind: 'melee', weaponId: 'sword', boots: 2 });
  // prettier-ignore
  // @ts-expect-error a field of the wrong type
  void client.command('narateer', id, { type: 'DeclareExchange', attackerId: 'mira', targetId: 'orin', kind: 'melee', weaponId: 'sword', boost: '2' });
  // @ts-expect-error a Narateer command sent to an Archsoul fight
  void client.command('archsoul', id, ok);
  const archsoul: ArchsoulCommand = { type: 'EndTurn', combatantId: 'kael' };
  void client.command('archsoul', id, archsoul);
  // @ts-expect-error a required field left out
  void client.command('narateer', id, { type: 'AddNote' });
}

export async function typedResults(client: CombatClient, id: string): Promise<void> {
  const narateer = await client.command('narateer', id, { type: 'AddNote', text: 'a note' });
  // A Narateer answer carries Narateer's view and events: their own fields need no narrowing.
  const uses: number | undefined = narateer.view.combatants[0]?.proactiveUsesLeft?.melee;
  const event: NarateerEvent = narateer.events[0];
  void [uses, event];
  // @ts-expect-error an Archsoul view field read off a Narateer answer
  void narateer.view.map;
  // @ts-expect-error a Narateer answer's events are not Archsoul's
  const wrong: ArchsoulEvent = narateer.events[0];
  void wrong;
  const created = await client.createFight({ system: 'archsoul', commandId: 'once' });
  void created.view.map;
  // @ts-expect-error a Narateer view field read off an Archsoul creation
  void created.view.combatants[0]?.proactiveUsesLeft;
}
