import type { EntityManager } from 'typeorm';

/** The setting whose key the row fingerprints. */
const ENCRYPTION_KEY_SETTING = 'ENCRYPTION_KEY';

export interface RecordedFingerprint {
  fingerprint: string;
  recorded_at: Date;
}

/**
 * The recorded fingerprint, share-locked until the transaction ends: a start waits for a re-seal
 * in progress (which holds the row for update) and then sees the fingerprint it wrote.
 */
export async function findFingerprintForShare(em: EntityManager): Promise<RecordedFingerprint | null> {
  const rows: RecordedFingerprint[] = await em.query(
    'SELECT fingerprint, recorded_at FROM encryption_key_fingerprints WHERE setting = $1 FOR SHARE',
    [ENCRYPTION_KEY_SETTING],
  );
  return rows[0] ?? null;
}

/**
 * Records `fingerprint` unless one is recorded. The primary key decides: of two processes starting
 * at once on an empty database, the second waits for the first's commit and then inserts nothing.
 */
export async function recordFirstFingerprint(em: EntityManager, fingerprint: string, now: Date): Promise<void> {
  await em.query(
    `INSERT INTO encryption_key_fingerprints (setting, fingerprint, recorded_at) VALUES ($1, $2, $3)
     ON CONFLICT (setting) DO NOTHING`,
    [ENCRYPTION_KEY_SETTING, fingerprint, now],
  );
}

/**
 * The recorded fingerprint, locked for update (a re-seal holds it to the end, so starts and other
 * re-seals wait for its outcome); `absent` is recorded first when there is none, so there is
 * always a row to lock.
 */
export async function lockFingerprint(em: EntityManager, absent: string, now: Date): Promise<RecordedFingerprint> {
  await recordFirstFingerprint(em, absent, now);
  const rows: RecordedFingerprint[] = await em.query(
    'SELECT fingerprint, recorded_at FROM encryption_key_fingerprints WHERE setting = $1 FOR UPDATE',
    [ENCRYPTION_KEY_SETTING],
  );
  return rows[0];
}

export async function replaceFingerprint(em: EntityManager, fingerprint: string, now: Date): Promise<void> {
  await em.query('UPDATE encryption_key_fingerprints SET fingerprint = $2, recorded_at = $3 WHERE setting = $1', [
    ENCRYPTION_KEY_SETTING,
    fingerprint,
    now,
  ]);
}
