import { FightCore, RuleSystem } from '@app/rules';
import { SystemModel } from './models';

export function describeSystem(s: RuleSystem<FightCore>): SystemModel {
  return {
    id: s.id,
    name: s.name,
    data: s.data,
    rulings: s.rulings,
    commands: Object.entries(s.commands).map(([type, description]) => ({ type, description })),
  };
}
