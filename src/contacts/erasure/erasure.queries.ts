import type { EntityManager } from 'typeorm';
import { type ErasedRecords, erasedRowsOf } from '../../infra/erasure/erasure-registry.service';

/**
 * The contacts module's own part of an erasure: the contact, locked first and deleted once every
 * module has erased the person's records from its own tables (infra/erasure/erasure-registry.service.ts;
 * a new table that stores an email or a user id contributes there too, docs/contacts.md).
 */

export interface ErasedPerson {
  id: string;
  email: string | null;
  userId: string | null;
}

/** The contact, locked until the transaction ends; null when the project has no such contact. */
export async function lockContact(em: EntityManager, projectId: string, contactId: string): Promise<ErasedPerson | null> {
  const rows: { id: string; email: string | null; user_id: string | null }[] = await em.query(
    'SELECT id, email, user_id FROM contacts WHERE project_id = $1 AND id = $2 FOR UPDATE',
    [projectId, contactId],
  );
  return rows.length > 0 ? { id: rows[0].id, email: rows[0].email, userId: rows[0].user_id } : null;
}

/** Deletes the contact; answers the count (1) and its id, which stored copies may name. */
export async function deleteErasedContact(em: EntityManager, projectId: string, contactId: string): Promise<ErasedRecords> {
  return erasedRowsOf(await em.query('DELETE FROM contacts WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, contactId]));
}
