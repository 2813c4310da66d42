import { ApiError } from '../errors/api-error';
import { PathParamPipe, idKind, oneOfKind, patternKind } from './path-param.pipe';
import { RawReply } from './reply';

const ENTRY_ID = 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M';

function refusal(pipe: PathParamPipe, value: unknown): unknown {
  try {
    pipe.transform(value);
  } catch (error) {
    return error instanceof ApiError ? { status: error.status, code: error.code, param: error.param, message: error.message } : error;
  }
  return 'accepted';
}

describe('PathParamPipe', () => {
  const entry = new PathParamPipe('id', idKind('ce'), {});

  it('passes a value of its kind through unchanged', () => {
    expect(entry.transform(ENTRY_ID)).toBe(ENTRY_ID);
  });

  it.each([
    ['a NUL byte', `${ENTRY_ID}\u0000`],
    ['another prefix', 'ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'],
    ['lower case', ENTRY_ID.toLowerCase()],
    ['a letter Crockford base32 leaves out', 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1I'],
    ['SQL', "ce_' OR '1'='1"],
    ['the replacement character of an undecodable byte', '\ufffd'],
    ['a number', 42],
    ['nothing', undefined],
  ])('answers NOT_FOUND on the parameter for %s, naming the id shape', (_case, value) => {
    expect(refusal(entry, value)).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      param: 'id',
      message: 'No changelog entry has this id: changelog entry ids are "ce_" and 26 letters and digits.',
    });
  });

  it("answers the route's own not-found code when it has one", () => {
    const contact = new PathParamPipe('id', idKind('ct'), { notFound: 'CONTACT_NOT_FOUND' });
    expect(refusal(contact, 'nope')).toMatchObject({ status: 404, code: 'CONTACT_NOT_FOUND', param: 'id' });
  });

  it("throws a page route's not-found page as it is", () => {
    const page = new RawReply('<p>Not found</p>', 'text/html; charset=utf-8', 404);
    const pipe = new PathParamPipe('entry_id', idKind('ce'), { notFoundPage: () => page });
    expect(refusal(pipe, 'a\u0000b')).toBe(page);
  });
});

describe('kinds', () => {
  it('document an id by its anchored pattern and an example of it', () => {
    const kind = idKind('whd');
    expect(kind.schema).toEqual({ pattern: '^whd_[0-9A-HJKMNP-TV-Z]{26}$', example: 'whd_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' });
    expect(kind.matches(kind.schema.example)).toBe(true);
  });

  it('match a pattern or a name from a list, and nothing else', () => {
    const slug = patternKind({ pattern: /^[a-z0-9-]{1,40}$/, example: 'acme', mismatch: 'No project has this slug.' });
    expect([slug.matches('acme'), slug.matches('Acme'), slug.matches('acme\n')]).toEqual([true, false, false]);
    const names = oneOfKind(['waitlist_invite', 'changelog_entry'], 'No such template.');
    expect(names.schema).toEqual({ enum: ['waitlist_invite', 'changelog_entry'], example: 'waitlist_invite' });
    expect([names.matches('changelog_entry'), names.matches('constructor'), names.matches('__proto__')]).toEqual([true, false, false]);
  });
});
