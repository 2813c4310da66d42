import { EMAIL_MAX_LENGTH, emailProblem, normalizeEmail } from '../common/validation/email-field';
import { flatRecordProblem } from '../common/validation/flat-record';
import { CsvProblem, CsvRecord, unguardFormula } from './csv';
import { SIGNUP_STATUSES, SignupSource, SignupStatus, WaitlistSignupEntity } from './entities/waitlist-signup.entity';

/**
 * The waitlist's CSV format, shared by export and import so that an export imports back:
 * one header row, then one row per signup in line order. Import reads the columns marked
 * "imported" and skips the ones only an export has (positions and referral codes are assigned
 * anew; referral links between people are not carried over). Unknown columns refuse the file.
 */
export const EXPORT_COLUMNS = [
  'position',
  'email',
  'status',
  'confirmed',
  'confirmed_at',
  'invited_at',
  'unsubscribed_at',
  'created_at',
  'referral_code',
  'referral_count',
  'referred_by',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'landing_path',
  'metadata',
  'signup_id',
] as const;

const EXPORT_ONLY = new Set(['position', 'referral_code', 'referral_count', 'referred_by', 'signup_id']);

// Spec: Waitlist source limits.
const SOURCE_LIMITS: Record<keyof SignupSource, number> = {
  referrer: 2048,
  utm_source: 255,
  utm_medium: 255,
  utm_campaign: 255,
  landing_path: 512,
};

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
const BOOLEANS: Record<string, boolean> = { '': false, true: true, false: false, '1': true, '0': false, yes: true, no: false };

export interface ImportRow {
  line: number;
  email: string;
  status: SignupStatus;
  confirmedAt: Date | null;
  invitedAt: Date | null;
  unsubscribedAt: Date | null;
  createdAt: Date;
  source: SignupSource;
  metadata: Record<string, string | number | boolean>;
}

export class CsvFormatError extends Error {}

/** Column name → index. Throws CsvFormatError when the header cannot describe signups. */
export function readHeader(record: CsvRecord): Map<string, number> {
  const columns = new Map<string, number>();
  record.cells.forEach((cell, index) => {
    const name = cell.trim().toLowerCase();
    if (!(EXPORT_COLUMNS as readonly string[]).includes(name)) {
      throw new CsvFormatError(`Unknown column "${name}" in the header; known columns: ${EXPORT_COLUMNS.join(', ')}.`);
    }
    if (columns.has(name)) throw new CsvFormatError(`Column "${name}" appears twice in the header.`);
    if (!EXPORT_ONLY.has(name)) columns.set(name, index);
  });
  if (!columns.has('email')) throw new CsvFormatError('The header has no "email" column.');
  return columns;
}

class RowProblem extends Error {}

function timestamp(value: string, column: string): Date | null {
  if (value === '') return null;
  if (!ISO_TIMESTAMP.test(value) || Number.isNaN(Date.parse(value))) throw new RowProblem(`${column} is not an ISO 8601 date-time`);
  return new Date(value);
}

function metadataOf(value: string): Record<string, string | number | boolean> {
  if (value === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new RowProblem('metadata is not valid JSON');
  }
  const problem = flatRecordProblem(parsed);
  if (problem) throw new RowProblem(`metadata ${problem}`);
  return parsed as Record<string, string | number | boolean>;
}

function parseRow(cell: (column: string) => string, now: Date): Omit<ImportRow, 'line'> {
  const email = normalizeEmail(cell('email'));
  if (email.length === 0) throw new RowProblem('email is empty');
  // The API's rule (`@EmailField`): normalised first, then checked.
  if (emailProblem(email)) throw new RowProblem(`email is not a valid email address of at most ${EMAIL_MAX_LENGTH} characters`);
  const status = (cell('status') || 'waiting').toLowerCase() as SignupStatus;
  if (!SIGNUP_STATUSES.includes(status)) throw new RowProblem(`status must be one of ${SIGNUP_STATUSES.join(', ')}`);
  const confirmed = BOOLEANS[cell('confirmed').toLowerCase()];
  if (confirmed === undefined) throw new RowProblem('confirmed must be true or false');
  const source: SignupSource = {};
  for (const [key, limit] of Object.entries(SOURCE_LIMITS) as [keyof SignupSource, number][]) {
    const value = cell(key);
    if (value.length > limit) throw new RowProblem(`${key} must be at most ${limit} characters`);
    if (value !== '') source[key] = value;
  }
  const confirmedAt = timestamp(cell('confirmed_at'), 'confirmed_at');
  const invitedAt = timestamp(cell('invited_at'), 'invited_at');
  const unsubscribedAt = timestamp(cell('unsubscribed_at'), 'unsubscribed_at');
  return {
    email,
    status,
    confirmedAt: confirmedAt ?? (confirmed ? now : null),
    invitedAt: invitedAt ?? (status === 'invited' ? now : null),
    unsubscribedAt: unsubscribedAt ?? (status === 'unsubscribed' ? now : null),
    createdAt: timestamp(cell('created_at'), 'created_at') ?? now,
    source,
    metadata: metadataOf(cell('metadata')),
  };
}

/** One data record → an import row, or the reason it cannot be imported. */
export function toImportRow(columns: Map<string, number>, width: number, record: CsvRecord, now: Date): ImportRow | CsvProblem {
  if (record.cells.length > width) {
    return { line: record.line, reason: `the row has ${record.cells.length} cells, the header ${width}` };
  }
  const cell = (column: string): string => {
    const index = columns.get(column);
    return index === undefined ? '' : unguardFormula(record.cells[index] ?? '').trim();
  };
  try {
    return { line: record.line, ...parseRow(cell, now) };
  } catch (error) {
    if (error instanceof RowProblem) return { line: record.line, reason: error.message };
    throw error;
  }
}

/** One signup → its export cells, in EXPORT_COLUMNS order (formula guarding happens in toCsv). */
export function toExportRow(signup: WaitlistSignupEntity): string[] {
  const iso = (date: Date | null) => date?.toISOString() ?? '';
  const values: Record<(typeof EXPORT_COLUMNS)[number], string> = {
    position: String(signup.position),
    email: signup.email,
    status: signup.status,
    confirmed: String(signup.confirmedAt !== null),
    confirmed_at: iso(signup.confirmedAt),
    invited_at: iso(signup.invitedAt),
    unsubscribed_at: iso(signup.unsubscribedAt),
    created_at: iso(signup.createdAt),
    referral_code: signup.referralCode,
    referral_count: String(signup.referralCount),
    referred_by: signup.referredBySignupId ?? '',
    referrer: signup.source.referrer ?? '',
    utm_source: signup.source.utm_source ?? '',
    utm_medium: signup.source.utm_medium ?? '',
    utm_campaign: signup.source.utm_campaign ?? '',
    landing_path: signup.source.landing_path ?? '',
    metadata: Object.keys(signup.metadata).length > 0 ? JSON.stringify(signup.metadata) : '',
    signup_id: signup.id,
  };
  return EXPORT_COLUMNS.map((column) => values[column]);
}
