/** A broken rule: a stable code, a message that names the rule, the offending field. */
export class RuleViolation extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'RuleViolation';
  }
}

export function violation(code: string, message: string, field?: string): never {
  throw new RuleViolation(code, message, field);
}

export function ensure(condition: unknown, code: string, message: string, field?: string): asserts condition {
  if (!condition) throw new RuleViolation(code, message, field);
}
