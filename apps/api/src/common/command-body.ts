import { AppError, CommandInput } from '@app/fights';

/**
 * REST commands are `{ type, commandId?, expectedSeq?, ...payload }`: the envelope is
 * checked here, the payload by the rule system, which names any bad field.
 */
export function parseCommandBody(body: unknown): CommandInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError(400, 'VALIDATION_FAILED', 'the body must be a JSON object', 'body');
  const { type, commandId, expectedSeq } = body as Record<string, unknown>;
  if (typeof type !== 'string' || !/^[A-Za-z]{1,60}$/.test(type)) throw new AppError(400, 'VALIDATION_FAILED', 'type must be a command type name', 'type');
  if (commandId !== undefined && (typeof commandId !== 'string' || commandId.length < 1 || commandId.length > 100)) {
    throw new AppError(400, 'VALIDATION_FAILED', 'commandId must be a string of 1 to 100 characters', 'commandId');
  }
  if (expectedSeq !== undefined && (typeof expectedSeq !== 'number' || !Number.isInteger(expectedSeq) || expectedSeq < 0)) {
    throw new AppError(400, 'VALIDATION_FAILED', 'expectedSeq must be a non-negative integer', 'expectedSeq');
  }
  return body as CommandInput;
}
