import { parseCsv } from './csv';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { CsvFormatError, EXPORT_COLUMNS, readHeader, toExportRow, toImportRow } from './waitlist-csv';

const NOW = new Date('2026-11-20T10:00:00.000Z');

function importRows(text: string) {
  const { records } = parseCsv(text);
  const columns = readHeader(records[0]);
  return records.slice(1).map((record) => toImportRow(columns, records[0].cells.length, record, NOW));
}

describe('readHeader', () => {
  it('needs an email column', () => {
    expect(() => readHeader({ line: 1, cells: ['name'] })).toThrow(CsvFormatError);
    expect(() => readHeader({ line: 1, cells: ['metadata'] })).toThrow('no "email" column');
  });

  it('refuses unknown and repeated columns', () => {
    expect(() => readHeader({ line: 1, cells: ['email', 'nickname'] })).toThrow('Unknown column "nickname"');
    expect(() => readHeader({ line: 1, cells: ['email', 'Email'] })).toThrow('appears twice');
  });

  it('accepts every export column, case-insensitively', () => {
    expect(readHeader({ line: 1, cells: EXPORT_COLUMNS.map((column) => column.toUpperCase()) }).get('email')).toBe(1);
  });
});

describe('toImportRow', () => {
  it('reads a minimal row with defaults', () => {
    expect(importRows('email\n Ada@Example.com \n')).toEqual([
      {
        line: 2,
        email: 'ada@example.com',
        status: 'waiting',
        confirmedAt: null,
        invitedAt: null,
        unsubscribedAt: null,
        createdAt: NOW,
        source: {},
        metadata: {},
      },
    ]);
  });

  it('reads status, confirmation, timestamps, source and metadata', () => {
    const [row] = importRows(
      'email,status,confirmed,invited_at,utm_source,landing_path,metadata\n' +
        'a@x.io,invited,true,2026-01-02T03:04:05Z,news,/join,"{""plan"":""pro"",""seats"":3}"\n',
    );
    expect(row).toMatchObject({
      status: 'invited',
      confirmedAt: NOW,
      invitedAt: new Date('2026-01-02T03:04:05Z'),
      source: { utm_source: 'news', landing_path: '/join' },
      metadata: { plan: 'pro', seats: 3 },
    });
  });

  it('removes the formula guard of exported cells', () => {
    expect(importRows("email,utm_campaign\n'-x@y.io,'=launch\n")[0]).toMatchObject({
      email: '-x@y.io',
      source: { utm_campaign: '=launch' },
    });
  });

  it.each([
    ['not-an-email', 'email is not a valid email'],
    [',', 'email is empty'],
    ['"""a,b""@x.io"', 'email is not a valid email'],
    ['"""a\r\nBcc: v@evil.test""@x.io"', 'email is not a valid email'],
    ['"""<v@evil.test>""@x.io"', 'email is not a valid email'],
    ['a\u0001b@x.io', 'email is not a valid email'],
    ['a@x.io,paused', 'status must be one of waiting, invited, unsubscribed'],
    ['a@x.io,,maybe', 'confirmed must be true or false'],
    ['a@x.io,,,yesterday', 'created_at is not an ISO 8601 date-time'],
    ['a@x.io,,,,{nope', 'metadata is not valid JSON'],
    ['a@x.io,,,,"{""a"":{""b"":1}}"', 'metadata .a must be a string, number or boolean'],
    ['a@x.io,,,,,extra', 'the row has 6 cells, the header 5'],
  ])('reports %j: %s', (line, reason) => {
    const [row] = importRows(`email,status,confirmed,created_at,metadata\n${line}\n`);
    expect(row).toEqual({ line: 2, reason: expect.stringContaining(reason) });
  });

  it('enforces the source limits of the spec', () => {
    const [row] = importRows(`email,utm_source\na@x.io,${'u'.repeat(256)}\n`);
    expect(row).toEqual({ line: 2, reason: 'utm_source must be at most 255 characters' });
  });
});

describe('toExportRow', () => {
  it('writes every column in order, and reads back as the same signup', () => {
    const signup = Object.assign(new WaitlistSignupEntity(), {
      id: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
      email: 'ada@example.com',
      position: 7,
      referralCode: 'K7M2Q9XA',
      referredBySignupId: null,
      referralCount: 2,
      status: 'unsubscribed',
      confirmedAt: new Date('2026-01-01T00:00:00Z'),
      invitedAt: null,
      unsubscribedAt: new Date('2026-01-03T00:00:00Z'),
      createdAt: new Date('2025-12-31T00:00:00Z'),
      source: { referrer: 'https://x.io', utm_medium: 'social' },
      metadata: { company: 'Engines, Ltd', vip: true },
    });
    const cells = toExportRow(signup);
    expect(cells).toHaveLength(EXPORT_COLUMNS.length);
    expect(Object.fromEntries(EXPORT_COLUMNS.map((column, index) => [column, cells[index]]))).toMatchObject({
      position: '7',
      confirmed: 'true',
      referral_count: '2',
      metadata: '{"company":"Engines, Ltd","vip":true}',
    });
    const back = toImportRow(readHeader({ line: 1, cells: [...EXPORT_COLUMNS] }), EXPORT_COLUMNS.length, { line: 2, cells }, NOW);
    expect(back).toMatchObject({
      email: signup.email,
      status: signup.status,
      confirmedAt: signup.confirmedAt,
      unsubscribedAt: signup.unsubscribedAt,
      createdAt: signup.createdAt,
      source: signup.source,
      metadata: signup.metadata,
    });
  });
});
