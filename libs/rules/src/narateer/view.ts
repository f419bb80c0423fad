import { coreView } from '../core/lifecycle';
import { NarateerState } from './state';

export function view(state: NarateerState): Record<string, unknown> {
  return {
    ...coreView(state),
    combatants: state.joined.map((id) => {
      const c = state.combatants[id];
      return { id, name: c.name, side: c.side, vitality: c.vitality, maxVitality: c.sheet.maxVitality, initiative: c.initiative ?? null };
    }),
  };
}
