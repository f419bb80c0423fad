import { ContractViolation } from '@app/rules';

/** Application errors: each maps to one HTTP status and a stable code at the edge. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * A field of a readable body that breaks its declaration, found past the DTO (a value only the
 * service can judge): 422 INVALID_FIELD with `issues`, the answer the contract gives.
 */
export const invalidField = (field: string, message: string) =>
  new ContractViolation([{ field, code: 'INVALID_FIELD', message }]);

export const fightNotFound = (id: string) =>
  new AppError(404, 'FIGHT_NOT_FOUND', `no fight ${id}`, 'fightId');

export const expectedSeqMismatch = (expected: number, actual: number) =>
  new AppError(
    409,
    'EXPECTED_SEQ_MISMATCH',
    `expectedSeq is ${expected} but the fight is at seq ${actual}`,
    'expectedSeq',
  );

export const concurrencyConflict = (id: string) =>
  new AppError(
    409,
    'CONCURRENCY_CONFLICT',
    `fight ${id} kept changing while this command was decided; send it again`,
  );

/** `field` (a seq the client sent: `minSeq`, `after`, `Last-Event-ID`) names a state the fight has not reached: its last seq is `last`. */
export const seqOutOfRange = (last: number, field: string) =>
  new AppError(422, 'SEQ_OUT_OF_RANGE', `${field} must be at most ${last}, the fight's last seq`, field);
