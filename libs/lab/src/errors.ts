import { ContractViolation, RuleViolation } from '@app/rules';

/** A bad lab request: a stable code and the field at fault (the API turns it into a 422). */
export class LabInputError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'LabInputError';
  }
}

/**
 * A refusal of the rules as the lab's caller wrote the input: every field (and the field in each message)
 * renamed, `combatants[0].sheet.vitals` → `sheets[0].vitals`; a contract's refusal keeps all its issues.
 */
export function renamedViolation(e: RuleViolation, rename: (field: string) => string): RuleViolation {
  const say = (message: string, field: string) => {
    if (field === '') return message;
    // The field, and the paths above it that a message names (`… is not a field of combatants[0].sheet`),
    // each renamed in one pass, longest first, so a renamed name is never renamed again.
    const names = pathsAbove(field).filter((path) => rename(path) !== path);
    if (!names.includes(field)) names.unshift(field);
    const pattern = new RegExp(names.map(escapeRegExp).join('|'), 'g');
    return message.replace(pattern, (name) => rename(name));
  };
  if (e instanceof ContractViolation)
    return new ContractViolation(
      e.issues.map((i) => ({ ...i, field: rename(i.field), message: say(i.message, i.field) })),
    );
  return e.field ? new RuleViolation(e.code, say(e.message, e.field), rename(e.field)) : e;
}

/**
 * A field's path and every path above it that is itself a path (`combatants[0].sheet.vitals` →
 * `combatants[0].sheet`, `combatants[0]`), longest first; a bare name (`vitals`) is not taken, as a word
 * of the message could be the same.
 */
function pathsAbove(field: string): string[] {
  const paths: string[] = [];
  let path = field;
  while (/[.[]/.test(path)) {
    paths.push(path);
    const up = path.replace(/(?:\.[^.[]*|\[[^\]]*\])$/, '');
    if (up === path || up === '') break;
    path = up;
  }
  return paths;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
