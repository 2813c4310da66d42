import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, isEmail } from 'class-validator';

/** Spec: Conventions → Email fields (at most 254 characters, email format). */
export const EMAIL_MAX_LENGTH = 254;

/** Trimmed and lower-cased: one person, one row, whatever the casing they typed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Why an already normalised value is not a storable email, or null when it is one. The length is
 * counted in UTF-16 code units, the unit class-validator's isEmail limits too; a varchar(254) column
 * (which counts code points, never more than code units) can then always hold the value.
 */
export function emailProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > EMAIL_MAX_LENGTH) return `must be at most ${EMAIL_MAX_LENGTH} characters (got ${value.length})`;
  if (!isEmail(value)) return 'must be an email address';
  return null;
}

export interface EmailFieldOptions {
  /** `?` on the property: absent (or null) is allowed. */
  optional?: boolean;
  /** Documents `null` as a value; only meaningful with `optional`. */
  nullable?: boolean;
  description?: string;
  example?: string;
}

const normalizeIfString = ({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeEmail(value) : value);

/**
 * An email property of a request DTO: documented, normalised (trimmed, lower-cased) and then
 * validated. Normalising first matters: lower-casing can lengthen an address ('İ' becomes 'i̇',
 * two code units), so the limit is checked on what is stored.
 */
export function EmailField(options: EmailFieldOptions = {}): PropertyDecorator {
  const doc = {
    type: String,
    format: 'email',
    maxLength: EMAIL_MAX_LENGTH,
    example: options.example ?? 'ada@example.com',
    description: options.description ?? 'Stored trimmed and lower-cased.',
    ...(options.nullable ? { nullable: true } : {}),
  };
  return applyDecorators(
    options.optional ? ApiPropertyOptional(doc) : ApiProperty(doc),
    Transform(normalizeIfString),
    ...(options.optional ? [IsOptional()] : []),
    ValidateBy({
      name: 'emailField',
      validator: {
        validate: (value: unknown) => emailProblem(value) === null,
        defaultMessage: (args) => `${args?.property ?? 'email'} ${emailProblem(args?.value) ?? 'is invalid'}`,
      },
    }),
  );
}
