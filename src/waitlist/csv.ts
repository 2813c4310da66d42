/**
 * RFC 4180 CSV: comma separated, fields optionally quoted with `"`, a quote inside a quoted field
 * doubled, records ended by CRLF (LF and CR alone are accepted on input). A UTF-8 byte-order mark
 * is skipped. Written cells are guarded against spreadsheet formula injection.
 */
export interface CsvRecord {
  /** The file line on which the record starts (1-based), for error reports. */
  line: number;
  cells: string[];
}

export interface CsvProblem {
  line: number;
  reason: string;
}

interface CsvParseResult {
  records: CsvRecord[];
  problems: CsvProblem[];
}

const FIELD_END = new Set([',', '\n', '\r']);

class CsvReader {
  private index = 0;
  private line = 1;

  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.index = 1;
  }

  get done(): boolean {
    return this.index >= this.text.length;
  }

  /** One record; a malformed record is skipped to the end of its line and reported. */
  readRecord(): CsvRecord | CsvProblem {
    const line = this.line;
    const cells: string[] = [];
    for (;;) {
      const cell = this.text[this.index] === '"' ? this.readQuoted() : this.readPlain();
      if (cell === null) return { line, reason: this.recover('a quoted field is not closed') };
      if (!this.done && !FIELD_END.has(this.text[this.index])) return { line, reason: this.recover('text after a closing quote') };
      cells.push(cell);
      if (this.done) return { line, cells };
      if (this.text[this.index] !== ',') break;
      this.index += 1;
    }
    this.endLine();
    return { line, cells };
  }

  private readPlain(): string {
    const start = this.index;
    while (!this.done && !FIELD_END.has(this.text[this.index])) this.index += 1;
    return this.text.slice(start, this.index);
  }

  private readQuoted(): string | null {
    let cell = '';
    this.index += 1;
    while (!this.done) {
      const char = this.text[this.index];
      if (char === '"' && this.text[this.index + 1] === '"') {
        cell += '"';
        this.index += 2;
      } else if (char === '"') {
        this.index += 1;
        return cell;
      } else {
        if (char === '\n') this.line += 1;
        cell += char;
        this.index += 1;
      }
    }
    return null;
  }

  private endLine(): void {
    this.index += this.text[this.index] === '\r' && this.text[this.index + 1] === '\n' ? 2 : 1;
    this.line += 1;
  }

  private recover(reason: string): string {
    while (!this.done && this.text[this.index] !== '\n' && this.text[this.index] !== '\r') this.index += 1;
    if (!this.done) this.endLine();
    return reason;
  }
}

/** Parses a whole file. Empty lines are skipped; malformed records become problems, not exceptions. */
export function parseCsv(text: string): CsvParseResult {
  const reader = new CsvReader(text);
  const result: CsvParseResult = { records: [], problems: [] };
  while (!reader.done) {
    const read = reader.readRecord();
    if ('reason' in read) result.problems.push(read);
    else if (read.cells.length > 1 || read.cells[0] !== '') result.records.push(read);
  }
  return result;
}

// A cell that starts with one of these is run as a formula by spreadsheet programs (OWASP: CSV injection).
const FORMULA_START = /^'*[=+\-@\t\r]/;
const GUARDED_FORMULA = /^'+[=+\-@\t\r]/;

/**
 * Prefixes a single quote to a cell a spreadsheet would run as a formula. Cells that already start
 * with quotes before such a character get one more, so `unguardFormula` restores every cell exactly.
 */
export function guardFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/** The inverse of `guardFormula`, for reading back files this service wrote. */
export function unguardFormula(cell: string): string {
  return GUARDED_FORMULA.test(cell) ? cell.slice(1) : cell;
}

function quoteCell(cell: string): string {
  return /[",\r\n]/.test(cell) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** Rows to CSV text (CRLF line ends, every cell formula-guarded and quoted when needed). */
export function toCsv(rows: string[][]): string {
  return rows.map((row) => row.map((cell) => quoteCell(guardFormula(cell))).join(',')).join('\r\n') + '\r\n';
}
