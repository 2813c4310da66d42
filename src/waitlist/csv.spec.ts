import { guardFormula, parseCsv, toCsv, unguardFormula } from './csv';

describe('parseCsv', () => {
  it('reads plain records with CRLF or LF line ends', () => {
    expect(parseCsv('a,b\r\n1,2\n3,4').records).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', '2'] },
      { line: 3, cells: ['3', '4'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and counts lines', () => {
    const { records, problems } = parseCsv('email,note\r\n"a@x.io","say ""hi"", then\r\nleave"\r\nb@x.io,plain\r\n');
    expect(problems).toEqual([]);
    expect(records).toEqual([
      { line: 1, cells: ['email', 'note'] },
      { line: 2, cells: ['a@x.io', 'say "hi", then\r\nleave'] },
      { line: 4, cells: ['b@x.io', 'plain'] },
    ]);
  });

  it('skips a byte-order mark and empty lines, and keeps empty cells', () => {
    expect(parseCsv('\uFEFFa,b\n\n,\nx,\n').records).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 3, cells: ['', ''] },
      { line: 4, cells: ['x', ''] },
    ]);
  });

  it('reports text after a closing quote and goes on with the next line', () => {
    const { records, problems } = parseCsv('a\n"x"y\nz\n');
    expect(problems).toEqual([{ line: 2, reason: 'text after a closing quote' }]);
    expect(records.map((record) => record.cells[0])).toEqual(['a', 'z']);
  });

  it('reports a quoted field that never closes', () => {
    expect(parseCsv('a\n"open\nmore').problems).toEqual([{ line: 2, reason: 'a quoted field is not closed' }]);
  });
});

describe('toCsv', () => {
  it('quotes only what needs it and ends every row with CRLF', () => {
    expect(toCsv([['a', 'b,c', 'say "hi"', 'two\nlines', ' padded', '']])).toBe('a,"b,c","say ""hi""","two\nlines"," padded",\r\n');
  });

  it('round-trips through parseCsv', () => {
    const rows = [
      ['email', 'metadata'],
      ['a@x.io', '{"k":"v, with \\"quotes\\""}'],
      ['b@x.io', 'line\r\nbreak'],
    ];
    expect(parseCsv(toCsv(rows)).records.map((record) => record.cells)).toEqual(rows);
  });
});

describe('formula guarding', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "'=already"])('prefixes %j with a quote', (cell) => {
    expect(guardFormula(cell)).toBe(`'${cell}`);
  });

  it.each(['plain', 'a=b', "'quoted", '', '1-2'])('leaves %j alone', (cell) => {
    expect(guardFormula(cell)).toBe(cell);
  });

  it.each(['=HYPERLINK("http://evil")', "'=x", "''-x", 'plain', "'plain", '-', "'"])('restores %j exactly', (cell) => {
    expect(unguardFormula(guardFormula(cell))).toBe(cell);
  });

  it('guards the cells toCsv writes', () => {
    expect(toCsv([['=cmd|"/c calc"!A1', '@x']])).toBe(`"'=cmd|""/c calc""!A1",'@x\r\n`);
  });
});
