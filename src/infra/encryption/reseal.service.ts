import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { Database } from '../database/database.service';
import { lockFingerprint, replaceFingerprint } from './encryption-keys.queries';
import { keyFingerprint } from './key-fingerprint';
import { type Reseal, SealedValues } from './sealed-values.service';

interface ResealReport {
  /** Values re-sealed from the previous key to the current one, per table. */
  resealed: Record<string, number>;
  /** Values already sealed under the current key, left as they were, per table. */
  unchanged: Record<string, number>;
}

/**
 * Moves every stored secret from one ENCRYPTION_KEY to another (`encryption:reseal`):
 *
 * - One transaction: every registered set (sealed-values.ts) is re-sealed and the fingerprint
 *   replaced, or nothing is. A value that opens under neither key stops it with the table and row.
 * - Idempotent: a value the new key already opens is left as it is, so a second run, or a run after
 *   a process with the new key wrote values, changes only what still needs it.
 * - Refuses a database whose recorded fingerprint is neither key's (a third key sealed it).
 * - The fingerprint row is locked for update first: a second re-seal waits, and a process starting
 *   meanwhile waits too, then checks its key against the new fingerprint.
 */
@Injectable()
export class ResealService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sealedValues: SealedValues,
  ) {}

  async reseal(previousKey: Buffer, currentKey: Buffer): Promise<ResealReport> {
    const previous = new SecretBox(previousKey);
    const current = new SecretBox(currentKey);
    const currentFingerprint = keyFingerprint(currentKey);
    const accepted = [keyFingerprint(previousKey), currentFingerprint];
    return this.db.transaction(async (em) => {
      const now = this.clock.now();
      const recorded = await lockFingerprint(em, accepted[0], now);
      if (!accepted.includes(recorded.fingerprint)) {
        throw new Error(
          "The database's secrets are sealed under neither ENCRYPTION_KEY_PREVIOUS nor ENCRYPTION_KEY (its recorded key fingerprint is another's); set ENCRYPTION_KEY_PREVIOUS to the key they are sealed with. Nothing was changed.",
        );
      }
      const report: ResealReport = { resealed: {}, unchanged: {} };
      for (const set of this.sealedValues.all()) {
        report.resealed[set.name] = 0;
        report.unchanged[set.name] = 0;
        const reseal: Reseal = (sealed, rowId) => {
          if (current.opens(sealed)) {
            report.unchanged[set.name] += 1;
            return sealed;
          }
          if (!previous.opens(sealed)) {
            throw new Error(
              `${set.name} ${rowId}: a stored secret opens under neither ENCRYPTION_KEY_PREVIOUS nor ENCRYPTION_KEY (damaged, or sealed under a third key). Nothing was changed.`,
            );
          }
          report.resealed[set.name] += 1;
          return current.seal(previous.open(sealed));
        };
        await set.resealAll(em, reseal);
      }
      if (recorded.fingerprint !== currentFingerprint) await replaceFingerprint(em, currentFingerprint, now);
      return report;
    });
  }
}
