/**
 * `build`, kept per object: each object's result is built once and handed out again while the object
 * lives (a WeakMap). Right only for what never changes in place, as a fold's state does not (an event
 * that changes a combatant makes a new object): a view's entry of an unchanged combatant is then the
 * same object in every view, and the read side sees at a glance that its rows did not change.
 */
export function keptPerObject<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const kept = new WeakMap<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) kept.set(key, (value = build(key)));
    return value;
  };
}
