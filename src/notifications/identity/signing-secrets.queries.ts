import type { EntityManager } from 'typeorm';
import type { Reseal } from '../../infra/encryption/sealed-values.service';

/** The sealed secrets of one project as stored. */
interface SealedSecretsRow {
  secret_ciphertext: string;
  previous_ciphertext: string | null;
  previous_valid_until: Date | null;
}

/**
 * Stores the first secret; false when the project already has one. The primary key on project_id
 * decides, so of two concurrent creates exactly one inserts (the other waits for its commit, then
 * does nothing) and no secret is ever shown twice.
 */
export async function insertFirstSecret(em: EntityManager, projectId: string, sealed: string, now: Date): Promise<boolean> {
  const rows: unknown[] = await em.query(
    `INSERT INTO notification_signing_secrets (project_id, secret_ciphertext, created_at)
     VALUES ($1, $2, $3)
     ON CONFLICT (project_id) DO NOTHING
     RETURNING project_id`,
    [projectId, sealed, now],
  );
  return rows.length === 1;
}

/**
 * Makes `sealed` the current secret and the current one the previous, valid until `validUntil`; one
 * statement, so the row lock serialises concurrent rotations. False when there is no secret yet.
 */
export async function rotateSecret(em: EntityManager, projectId: string, sealed: string, now: Date, validUntil: Date): Promise<boolean> {
  // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
  const [rows] = (await em.query(
    `UPDATE notification_signing_secrets
        SET previous_ciphertext = secret_ciphertext, previous_valid_until = $4, secret_ciphertext = $2, rotated_at = $3
      WHERE project_id = $1
      RETURNING project_id`,
    [projectId, sealed, now, validUntil],
  )) as [unknown[], number];
  return rows.length === 1;
}

export async function findSealedSecrets(em: EntityManager, projectId: string): Promise<SealedSecretsRow | null> {
  const rows: SealedSecretsRow[] = await em.query(
    'SELECT secret_ciphertext, previous_ciphertext, previous_valid_until FROM notification_signing_secrets WHERE project_id = $1',
    [projectId],
  );
  return rows[0] ?? null;
}

export async function hasSigningSecret(em: EntityManager, projectId: string): Promise<boolean> {
  const rows: unknown[] = await em.query('SELECT 1 FROM notification_signing_secrets WHERE project_id = $1', [projectId]);
  return rows.length === 1;
}

/** Any one sealed secret (the start-up key check tries it); null when no project has one. */
export async function sampleSealedSecret(em: EntityManager): Promise<string | null> {
  const rows: Array<{ secret_ciphertext: string }> = await em.query('SELECT secret_ciphertext FROM notification_signing_secrets LIMIT 1');
  return rows[0]?.secret_ciphertext ?? null;
}

/**
 * `encryption:reseal`'s pass over the signing secrets: current and previous secret of every
 * project, locked for update (one row per project); only rows with a changed value are written.
 */
export async function resealSecrets(em: EntityManager, reseal: Reseal): Promise<void> {
  const rows: Array<{ project_id: string; secret_ciphertext: string; previous_ciphertext: string | null }> = await em.query(
    'SELECT project_id, secret_ciphertext, previous_ciphertext FROM notification_signing_secrets ORDER BY project_id FOR UPDATE',
  );
  for (const row of rows) {
    const secret = reseal(row.secret_ciphertext, row.project_id);
    const previous = row.previous_ciphertext === null ? null : reseal(row.previous_ciphertext, row.project_id);
    if (secret === row.secret_ciphertext && previous === row.previous_ciphertext) continue;
    await em.query('UPDATE notification_signing_secrets SET secret_ciphertext = $2, previous_ciphertext = $3 WHERE project_id = $1', [
      row.project_id,
      secret,
      previous,
    ]);
  }
}
