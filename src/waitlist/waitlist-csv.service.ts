import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ContactsService } from '../contacts/contacts.service';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import type { ProjectRef } from '../projects/project-ref';
import { CsvProblem, parseCsv, toCsv } from './csv';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { placeSignup, signupDraft } from './signup-row';
import { CsvFormatError, EXPORT_COLUMNS, ImportRow, readHeader, toExportRow, toImportRow } from './waitlist-csv';
import { UQ_SIGNUP_EMAIL, UQ_SIGNUP_REFERRAL_CODE, takePositions } from './waitlist.queries';

interface ImportReport {
  imported: number;
  skipped_duplicates: number;
  invalid: CsvProblem[];
}

// Small transactions: each holds the project's position counter only briefly (from taking the
// positions to commit: one insert), so live signups keep flowing during a large import. Positions
// stay in file order.
const IMPORT_BATCH = 500;
const EXPORT_PAGE = 1_000;
// As for a single signup: a fresh code collides with an existing one once in ~1e12 / N.
const CODE_COLLISION_ATTEMPTS = 3;

/**
 * Operator CSV import and export (CLI). Imports emit no events and send no emails; they skip
 * emails already on the list (or earlier in the file) and report each unusable line. Imported
 * people get positions after the existing ones, in file order, and a contact like any signup
 * (stage `waitlist` or `invited`, `waitlist_emails` consent granted, or withdrawn when unsubscribed).
 */
@Injectable()
export class WaitlistCsvService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly contacts: ContactsService,
  ) {}

  async importCsv(project: ProjectRef, text: string): Promise<ImportReport> {
    const { records, problems } = parseCsv(text);
    const report: ImportReport = { imported: 0, skipped_duplicates: 0, invalid: [...problems] };
    if (records.length === 0) throw new CsvFormatError('The file has no header row.');
    const columns = readHeader(records[0]);
    const now = this.clock.now();
    const seen = new Set<string>();
    const rows: ImportRow[] = [];
    for (const record of records.slice(1)) {
      const row = toImportRow(columns, records[0].cells.length, record, now);
      if ('reason' in row) {
        report.invalid.push(row);
      } else if (seen.has(row.email)) {
        report.skipped_duplicates += 1;
      } else {
        seen.add(row.email);
        rows.push(row);
      }
    }
    for (let start = 0; start < rows.length; start += IMPORT_BATCH) {
      const imported = await this.importBatch(project, rows.slice(start, start + IMPORT_BATCH));
      report.imported += imported;
      report.skipped_duplicates += Math.min(IMPORT_BATCH, rows.length - start) - imported;
    }
    report.invalid.sort((left, right) => left.line - right.line);
    return report;
  }

  /** The whole list in line order, as CSV text. */
  async exportCsv(project: ProjectRef): Promise<{ csv: string; exported: number }> {
    const rows: string[][] = [[...EXPORT_COLUMNS]];
    for (let after = 0; ;) {
      const page = await this.db.manager
        .createQueryBuilder(WaitlistSignupEntity, 's')
        .where('s.project_id = :projectId AND s.position > :after', { projectId: project.id, after })
        .orderBy('s.position', 'ASC')
        .limit(EXPORT_PAGE)
        .getMany();
      rows.push(...page.map(toExportRow));
      if (page.length < EXPORT_PAGE) break;
      after = page[page.length - 1].position;
    }
    return { csv: toCsv(rows), exported: rows.length - 1 };
  }

  private async importBatch(project: ProjectRef, rows: ImportRow[]): Promise<number> {
    for (let attempt = 1, codeCollisions = 0; ; attempt += 1) {
      try {
        return await this.db.transaction((em) => this.insertBatch(em, project, rows));
      } catch (error) {
        // A live signup took one of these emails since the batch read them; the next read skips it.
        // Each such retry removes an email for good, so they end within the batch size.
        if (isUniqueViolation(error, UQ_SIGNUP_EMAIL) && attempt <= rows.length) continue;
        if (isUniqueViolation(error, UQ_SIGNUP_REFERRAL_CODE) && ++codeCollisions < CODE_COLLISION_ATTEMPTS) continue;
        throw error;
      }
    }
  }

  private async insertBatch(em: EntityManager, project: ProjectRef, rows: ImportRow[]): Promise<number> {
    const existing = await em.find(WaitlistSignupEntity, {
      select: { email: true },
      where: { projectId: project.id, email: In(rows.map((row) => row.email)) },
    });
    const known = new Set(existing.map((row) => row.email));
    const fresh = rows.filter((row) => !known.has(row.email));
    if (fresh.length === 0) return 0;
    // Contacts before the counter: the module's lock order (signups.service.ts).
    await this.contacts.upsertContactsByEmail(
      em,
      project.id,
      fresh.map((row) => ({
        email: row.email,
        stage: row.status === 'invited' ? 'invited' : 'waitlist',
        details: row.metadata,
        consents: { waitlist_emails: row.status === 'unsubscribed' ? 'withdrawn' : 'granted' },
      })),
    );
    // The read above held no lock: an email a live signup took since then fails this insert
    // (unique index), and the retried batch skips it.
    const first = await takePositions(em, project.id, fresh.length);
    const now = this.clock.now();
    const signups = fresh.map((row, index) => placeSignup(signupDraft(project.id, { ...row, channel: 'import' }, now), first + index));
    await em.insert(WaitlistSignupEntity, signups);
    return fresh.length;
  }
}
