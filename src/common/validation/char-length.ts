import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';

/**
 * Length in Unicode code points, the unit PostgreSQL's varchar(n) and JSON Schema's maxLength
 * count. (class-validator's @Length discounts variation selectors, so a string it accepts could
 * still overflow a varchar column and fail as a 500.)
 */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/** Why a value is not a storable string of `min` to `max` characters, or null when it is one. */
export function charLengthProblem(value: unknown, min: number, max: number): string | null {
  if (typeof value !== 'string') return 'must be a string';
  // PostgreSQL text cannot hold U+0000; refusing it here keeps it a 400 instead of a 500.
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  const length = codePointLength(value);
  if (length < min || length > max) return `must be ${min} to ${max} characters long (got ${length})`;
  return null;
}

/** A string of `min` to `max` characters (code points), without NUL characters. */
export function CharLength(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'charLength',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [min, max],
      options,
      validator: {
        validate: (value: unknown) => charLengthProblem(value, min, max) === null,
        defaultMessage: (args: ValidationArguments) => `${args.property} ${charLengthProblem(args.value, min, max) ?? 'is invalid'}`,
      },
    });
}
