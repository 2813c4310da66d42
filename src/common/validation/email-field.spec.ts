import { plainToInstance } from 'class-transformer';
import { isEmail, validateSync } from 'class-validator';
import { EMAIL_MAX_LENGTH, EmailField, emailProblem, normalizeEmail } from './email-field';

class Required {
  @EmailField()
  email: string;
}

class Optional {
  @EmailField({ optional: true, nullable: true })
  email?: string | null;
}

function check<T extends object>(type: new () => T, body: object): { value: T; errors: string[] } {
  const value = plainToInstance(type, body);
  const errors = validateSync(value).flatMap((error) => Object.values(error.constraints ?? {}));
  return { value, errors };
}

/** An address of exactly `length` code units: a 10-character local part and a padded domain. */
function addressOfLength(length: number, local = 'ada.lovela'): string {
  const labels: string[] = [];
  let remaining = length - local.length - 1 - '.io'.length;
  while (remaining > 0) {
    const label = Math.min(63, remaining - (labels.length > 0 ? 1 : 0));
    labels.push('d'.repeat(label));
    remaining -= label + (labels.length > 1 ? 1 : 0);
  }
  return `${local}@${labels.join('.')}.io`;
}

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Ada@Example.COM \n')).toBe('ada@example.com');
  });
});

describe('emailProblem', () => {
  it('accepts an address and refuses non-strings and non-addresses', () => {
    expect(emailProblem('ada@example.com')).toBeNull();
    expect(emailProblem(42)).toBe('must be a string');
    expect(emailProblem(['a@x.io'])).toBe('must be a string');
    expect(emailProblem('not-an-email')).toBe('must be an email address');
  });
});

describe('emailProblem and quoted local parts or control characters', () => {
  it.each([
    ['CR LF in a quoted local part', '"a\r\nBcc: victim@evil.test"@example.com'],
    ['a comma in a quoted local part', '"a,b"@example.com'],
    ['angle brackets in a quoted local part', '"<victim@evil.test>"@example.com'],
    ['a control character in a quoted local part', '"a\u0001b"@example.com'],
    ['a tab in a quoted local part', '"a\tb"@example.com'],
    ['DEL in a quoted local part', '"a\u007fb"@example.com'],
    ['a space in a quoted local part', '"a b"@example.com'],
    ['an empty quoted local part', '""@example.com'],
    ['a harmless quoted local part', '"ada"@example.com'],
  ])('refuses %s, which isEmail accepts', (_case, email) => {
    expect(isEmail(email)).toBe(true);
    expect(emailProblem(email)).toMatch(/^must not (have a quoted local part|contain control characters)/);
  });

  it.each([
    ['a C1 control', 'a\u0085b@example.com'],
    ['a line separator', 'a\u2028b@example.com'],
    ['a right-to-left override', '\u202eada@example.com'],
    ['a left-to-right mark', 'ada\u200e@example.com'],
  ])('refuses %s anywhere in the address', (_case, email) => {
    expect(emailProblem(email)).toBe('must not contain control characters (line breaks, tabs, NUL, direction marks)');
  });

  it('still accepts what an unquoted local part may hold, and letters beyond ASCII', () => {
    for (const email of ["o'brien+news@example.com", 'a.b-c_d@sub.example.co.uk', 'zoë@example.com', 'ada@bücher.example']) {
      expect(emailProblem(email)).toBeNull();
    }
  });
});

describe('@EmailField', () => {
  it('normalises before validating, so a padded mixed-case address passes and is stored lower-cased', () => {
    expect(check(Required, { email: ' Ada@Example.com ' })).toEqual({ value: { email: 'ada@example.com' }, errors: [] });
  });

  it('accepts 254 characters and refuses 255', () => {
    const at254 = addressOfLength(EMAIL_MAX_LENGTH);
    const at255 = addressOfLength(EMAIL_MAX_LENGTH + 1);
    expect([at254.length, at255.length]).toEqual([254, 255]);
    expect(check(Required, { email: at254 }).errors).toEqual([]);
    expect(check(Required, { email: at255 }).errors).toEqual(['email must be at most 254 characters (got 255)']);
  });

  it("checks the limit after lower-casing: 'İ' becomes two code units", () => {
    expect('İ'.toLowerCase()).toHaveLength(2);
    const grows = addressOfLength(EMAIL_MAX_LENGTH, 'İda.lovela');
    expect(grows).toHaveLength(254);
    const { value, errors } = check(Required, { email: grows });
    expect(value.email).toHaveLength(255);
    expect(errors).toEqual(['email must be at most 254 characters (got 255)']);
    const fits = addressOfLength(EMAIL_MAX_LENGTH - 1, 'İda.lovela');
    expect(check(Required, { email: fits })).toEqual({ value: { email: fits.toLowerCase() }, errors: [] });
  });

  it('refuses values that are not email strings', () => {
    for (const email of [undefined, null, 42, ['a@x.io'], { a: 1 }, '', 'two@@x.io']) {
      expect(check(Required, { email }).errors).toHaveLength(1);
    }
  });

  it('lets the optional variant be absent or null, and still checks a given value', () => {
    expect(check(Optional, {}).errors).toEqual([]);
    expect(check(Optional, { email: null }).errors).toEqual([]);
    expect(check(Optional, { email: 'Ada@Example.com' })).toEqual({ value: { email: 'ada@example.com' }, errors: [] });
    expect(check(Optional, { email: 'nope' }).errors).toEqual(['email must be an email address']);
    expect(check(Optional, { email: '"a,b"@x.io' }).errors).toEqual([
      'email must not have a quoted local part: write the address without quotation marks',
    ]);
  });
});
