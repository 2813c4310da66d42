import { redactError, redactMessage } from './redact-error';

describe('redactError', () => {
  it('keeps the SQL text, code and constraint of a failed query but none of its values', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "uq_signups_project_email"'), {
      code: '23505',
      constraint: 'uq_signups_project_email',
      detail: 'Key (project_id, email)=(prj_1, ada@example.com) already exists.',
      table: 'waitlist_signups',
    });
    const error = Object.assign(new Error(driverError.message), {
      name: 'QueryFailedError',
      query: 'INSERT INTO waitlist_signups (email) VALUES ($1)',
      parameters: ['ada@example.com'],
      driverError,
    });
    const redacted = redactError(error);
    expect(JSON.stringify(redacted)).not.toContain('ada@example.com');
    expect(redacted).toMatchObject({
      type: 'QueryFailedError',
      code: '23505',
      constraint: 'uq_signups_project_email',
      table: 'waitlist_signups',
      query: 'INSERT INTO waitlist_signups (email) VALUES ($1)',
      parameter_count: 1,
    });
  });

  it('hides the value a data-exception message quotes, in the message and the stack', () => {
    const error = new Error('invalid input syntax for type uuid: "tok_secret_value"');
    const redacted = redactError(error);
    expect(JSON.stringify(redacted)).not.toContain('tok_secret_value');
    expect(redacted.message).toBe('invalid input syntax for type uuid: "[redacted]"');
    expect(redacted.stack).toMatch(/^Error: invalid input syntax for type uuid: "\[redacted\]"\n\s+at /);
  });

  it('leaves messages without a trailing quoted value alone', () => {
    expect(redactMessage('relation "signups" does not exist')).toBe('relation "signups" does not exist');
  });
});
