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
