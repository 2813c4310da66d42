import { ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';

interface FlatRecordLimits {
  maxKeys?: number;
  maxKeyLength?: number;
  maxStringLength?: number;
}

const DEFAULTS: Required<FlatRecordLimits> = { maxKeys: 50, maxKeyLength: 64, maxStringLength: 1000 };

/** Why a value is not a flat record of strings, numbers and booleans, or null when it is one. */
export function flatRecordProblem(value: unknown, limits: FlatRecordLimits = {}): string | null {
  const { maxKeys, maxKeyLength, maxStringLength } = { ...DEFAULTS, ...limits };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'must be an object';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > maxKeys) return `must have at most ${maxKeys} keys`;
  for (const [key, item] of entries) {
    if (key.length === 0 || key.length > maxKeyLength) return `keys must be 1 to ${maxKeyLength} characters ("${key.slice(0, 80)}")`;
    if (typeof item === 'string') {
      if (item.length > maxStringLength) return `.${key} must be at most ${maxStringLength} characters`;
    } else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return `.${key} must be a finite number`;
    } else if (typeof item !== 'boolean') {
      return `.${key} must be a string, number or boolean`;
    }
  }
  return null;
}

/** An object whose values are strings, numbers or booleans only (metadata, contact details). */
export function IsFlatRecord(limits: FlatRecordLimits = {}, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isFlatRecord',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => flatRecordProblem(value, limits) === null,
        defaultMessage: (args: ValidationArguments) => {
          const problem = flatRecordProblem(args.value, limits) ?? 'is invalid';
          return problem.startsWith('.') ? `${args.property}${problem}` : `${args.property} ${problem}`;
        },
      },
    });
}
