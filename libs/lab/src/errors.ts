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
  const say = (message: string, field: string) => message.split(field).join(rename(field));
  if (e instanceof ContractViolation)
    return new ContractViolation(
      e.issues.map((i) => ({ ...i, field: rename(i.field), message: say(i.message, i.field) })),
    );
  return e.field ? new RuleViolation(e.code, say(e.message, e.field), rename(e.field)) : e;
}
