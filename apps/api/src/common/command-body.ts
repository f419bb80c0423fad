import { AppError, CommandInput } from '@app/fights';
import { ContractIssue, ContractViolation } from '@app/rules';
import { NOT_AN_OBJECT } from './body-checks';

/**
 * REST commands are `{ type, commandId?, expectedSeq?, ...payload }`: the envelope is
 * checked here, the payload by the rule system, which names any bad field. A body that is not
 * a JSON object cannot be read as a command (400); an envelope field of the wrong type or range
 * is a field of a readable command that breaks its declaration (422 INVALID_FIELD, as the
 * payload's own fields are).
 */
export function parseCommandBody(body: unknown): CommandInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError(400, 'VALIDATION_FAILED', NOT_AN_OBJECT, 'body');
  const { type, commandId, expectedSeq } = body as Record<string, unknown>;
  const issues: ContractIssue[] = [];
  const refuse = (field: string, message: string) =>
    issues.push({ field, code: 'INVALID_FIELD', message: `${field} ${message}` });
  if (type === undefined) refuse('type', 'is required');
  else if (typeof type !== 'string' || !/^[A-Za-z]{1,60}$/.test(type))
    refuse('type', 'must be a command type name');
  if (
    commandId !== undefined &&
    (typeof commandId !== 'string' || commandId.length < 1 || commandId.length > 100)
  )
    refuse('commandId', 'must be a string of 1 to 100 characters');
  if (
    expectedSeq !== undefined &&
    (typeof expectedSeq !== 'number' || !Number.isSafeInteger(expectedSeq) || expectedSeq < 0)
  )
    refuse('expectedSeq', 'must be a non-negative integer');
  if (issues.length > 0) throw new ContractViolation(issues);
  return body as CommandInput;
}
