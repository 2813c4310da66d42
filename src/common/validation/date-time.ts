import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';

// Spec: Conventions → Timestamps (ISO 8601 date-time with `Z` or a numeric offset), i.e. RFC 3339.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Why a value is not a real date-time, or null when it is one. Stricter than a format check: the
 * calendar must have the day (`2026-02-31` is refused, where `new Date` would shift it to March 3),
 * and a leap second (`23:59:60`) is refused too, since JavaScript dates cannot hold one.
 */
export function dateTimeProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  const match = DATE_TIME.exec(value);
  if (!match) return 'must be an ISO 8601 date-time with Z or a numeric offset, such as 2026-11-20T10:00:00Z';
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return 'must be a date that exists in the calendar';
  if (hour > 23 || minute > 59 || second > 59) return 'must be a time of day from 00:00:00 to 23:59:59';
  if (match[7] && (Number(match[8]) > 23 || Number(match[9]) > 59)) return 'must have an offset from -23:59 to +23:59';
  if (Number.isNaN(Date.parse(value.replace(' ', 'T')))) return 'must be a date-time JavaScript can represent';
  return null;
}

/** A real ISO 8601 / RFC 3339 date-time string (see dateTimeProblem); use for every date-time a request accepts. */
export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDateTime',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => dateTimeProblem(value) === null,
        defaultMessage: (args: ValidationArguments) => `${args.property} ${dateTimeProblem(args.value) ?? 'is invalid'}`,
      },
    });
}
