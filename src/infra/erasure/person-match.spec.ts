import {
  type PersonToErase,
  isPersonOrRecordValue,
  isPersonValue,
  jsonTextHasValue,
  jsonTokensOf,
  someStringValue,
  textPatternsOf,
  withoutPerson,
} from './person-match';

const ada: PersonToErase = { projectId: 'prj_1', email: 'ada@example.com', userIds: ['u1'], recordIds: ['ws_1'] };
const namesAda = (value: string) => isPersonValue(value, ada);

describe('matching an erased person', () => {
  it('matches the email whatever its case, and user ids exactly', () => {
    expect(isPersonValue('ada@example.com', ada)).toBe(true);
    expect(isPersonValue('Ada@Example.COM', ada)).toBe(true);
    expect(isPersonValue('u1', ada)).toBe(true);
    expect(isPersonValue('U1', ada)).toBe(false);
  });

  it('matches record ids only when asked to', () => {
    expect(isPersonValue('ws_1', ada)).toBe(false);
    expect(isPersonOrRecordValue('ws_1', ada)).toBe(true);
    expect(isPersonOrRecordValue('u1', ada)).toBe(true);
    expect(isPersonOrRecordValue('ws_12', ada)).toBe(false);
  });

  it('does not match values that only contain an identifier', () => {
    for (const value of ['xada@example.com', 'ada@example.com.au', 'u12', 'menu1', 'write to ada@example.com']) {
      expect(isPersonValue(value, ada)).toBe(false);
    }
    expect(someStringValue({ text: 'mail ada@example.com', id: 'u12', n: 1 }, namesAda)).toBe(false);
  });

  it('finds string values at any depth, not keys, numbers or booleans', () => {
    expect(someStringValue({ data: { invited: [{ email: 'x@y.z' }, { email: 'ada@example.com' }] } }, namesAda)).toBe(true);
    expect(someStringValue({ 'ada@example.com': 1 }, namesAda)).toBe(false);
    const one: PersonToErase = { ...ada, userIds: ['1'] };
    expect(someStringValue({ user_id: 1, ok: true, none: null }, (value) => isPersonValue(value, one))).toBe(false);
  });

  it('nulls exactly the matching values and keeps the shape', () => {
    const data = {
      email: 'ada@example.com',
      user_id: 'u1',
      other_user: 'u12',
      signup_id: 'ws_1',
      invited: [
        { signup_id: 'ws_1', email: 'ADA@example.com' },
        { signup_id: 'ws_2', email: 'bob@example.com' },
      ],
      position: 3,
      metadata: { owner: 'u1', note: null },
    };
    expect(withoutPerson(data, ada)).toEqual({
      email: null,
      user_id: null,
      other_user: 'u12',
      signup_id: 'ws_1',
      invited: [
        { signup_id: 'ws_1', email: null },
        { signup_id: 'ws_2', email: 'bob@example.com' },
      ],
      position: 3,
      metadata: { owner: null, note: null },
    });
    expect(data.email).toBe('ada@example.com');
  });

  it('writes tokens as JSON writes whole string values', () => {
    const quoted: PersonToErase = { projectId: 'prj_1', email: '"a b"@example.com', userIds: ['u"1', 'x\\y'], recordIds: ['ws_1'] };
    expect(jsonTokensOf(quoted)).toEqual({ lowerCased: ['"\\"a b\\"@example.com"'], exact: ['"u\\"1"', '"x\\\\y"'] });
    expect(jsonTokensOf(quoted, true).exact).toEqual(['"u\\"1"', '"x\\\\y"', '"ws_1"']);
    expect(jsonTokensOf({ projectId: 'prj_1', email: null, userIds: [], recordIds: [] })).toEqual({ lowerCased: [], exact: [] });
  });

  it('reads stored JSON text, and counts text that does not parse as a match', () => {
    expect(jsonTextHasValue('{"data":{"email":"ada@example.com"},"error":null}', namesAda)).toBe(true);
    expect(jsonTextHasValue('{"data":{"note":"\\"ada@example.com"},"error":null}', namesAda)).toBe(false);
    expect(jsonTextHasValue('{"data": "ada@example.com"', namesAda)).toBe(true);
  });
});

describe('finding an erased person in free text', () => {
  const patterns = textPatternsOf({ projectId: 'prj_1', email: 'ann+news@x.io', userIds: ['u.1', 'a\\b'], recordIds: [] });

  it('escapes punctuation so that it stands for itself', () => {
    expect(patterns.caseInsensitive[0]).toContain('ann\\+news\\@x\\.io');
    expect(patterns.caseSensitive).toEqual([expect.stringContaining('u\\.1'), expect.stringContaining('a\\\\b')]);
  });
});
