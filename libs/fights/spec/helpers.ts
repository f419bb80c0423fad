import { EventStore, ReadAllOptions } from '@app/event-store';

/** A Narateer sheet with no weapon and thick armour: fights that only need a combatant to exist. */
export const plainSheet = {
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  maxVitality: 12,
  maxAD: 6,
  maxMD: 0,
  weapons: [],
  armour: { soak: 20 },
};

/** The store, counting its reads of the global log. */
export function countingReads(store: EventStore): { store: EventStore; reads: () => number } {
  let reads = 0;
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === 'readAll')
        return (options?: ReadAllOptions) => {
          reads++;
          return target.readAll(options);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, reads: () => reads };
}
