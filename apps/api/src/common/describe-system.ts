import { FightCore, RuleSystem } from '@app/rules';
import { UNDO_COMMAND } from '@app/audit';
import { SystemModel } from './models';

export function describeSystem(s: RuleSystem<FightCore>): SystemModel {
  return {
    id: s.id,
    name: s.name,
    data: s.data,
    rulings: s.rulings,
    commands: [...Object.entries(s.commands), [UNDO_COMMAND, 'GM: undo the last `count` commands; appends ActionsUndone, deletes nothing, never reuses a die draw.']].map(([type, description]) => ({ type, description })),
  };
}
