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

// C0 and C1 controls, DEL, the Unicode line and paragraph separators, and the bidirectional
// controls (which make an address display as another one).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Why an already normalised value is not a storable email, or null when it is one. The length is
 * counted in UTF-16 code units, the unit class-validator's isEmail limits too; a varchar(254) column
 * (which counts code points, never more than code units) can then always hold the value.
 *
 * A quoted local part (`"a,b"@example.com`) is refused, although RFC 5321 allows it: no one signs
 * up with one, and it is the only way CR, LF, commas, angle brackets, spaces and other controls get
 * into an address that isEmail accepts. Every reader of the address (the mailer, which folds a line
 * break into a space and so writes to another address than the one stored; exports and receivers
 * of our events that split on commas or angle brackets) would have to get quoting right.
 */
export function emailProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > EMAIL_MAX_LENGTH) return `must be at most ${EMAIL_MAX_LENGTH} characters (got ${value.length})`;
  if (CONTROL_CHARACTERS.test(value)) return 'must not contain control characters (line breaks, tabs, NUL, direction marks)';
  if (value.includes('"')) return 'must not have a quoted local part: write the address without quotation marks';
  if (!isEmail(value)) return 'must be an email address';
  return null;
}

interface EmailFieldOptions {
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
