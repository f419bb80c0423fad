import { buildMessage, isISO8601, ValidateBy } from 'class-validator';

/**
 * A date-time input: ISO 8601 with a `T` between date and time, on the calendar (no 2030-02-31, no hour
 * 24), and one that JavaScript's Date reads (no week or ordinal dates, no basic format): the instant
 * stored is the one sent. Plain IsISO8601() took 2030-02-31 and stored 2030-03-03. A time without its
 * offset (`Z` or `+01:00`) is refused too: Date would read it in the server's own zone.
 */
const ZONED = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

export function IsDateTime(): PropertyDecorator {
  return ValidateBy({
    name: 'isDateTime',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        ZONED.test(value) &&
        isISO8601(value, { strict: true, strictSeparator: true }) &&
        Number.isFinite(Date.parse(value)),
      defaultMessage: buildMessage(
        (each) =>
          `${each}$property must be an ISO 8601 date and time that exists on the calendar, with its offset, e.g. 2026-12-31T23:00:00Z`,
      ),
    },
  });
}
