import type { EntityManager } from 'typeorm';
import { type ErasedRecords, erasedRowsOf } from '../infra/erasure/erasure-registry.service';
import type { PersonToErase } from '../infra/erasure/person-match';
import type { FeedbackEntity } from './entities/feedback.entity';

/**
 * Stores one feedback record. Raw SQL because this runs on every `POST /v1/feedback`, and
 * TypeORM's insert spends several times the CPU of the statement itself (measured: about 270 µs
 * more per insert than the same statement through `em.query`).
 */
export async function insertFeedback(em: EntityManager, row: FeedbackEntity): Promise<void> {
  await em.query(
    `INSERT INTO feedback (id, project_id, feedback_text, classification, confidence, summary, user_id, email, page_url, rating,
       category_hint, changelog_entry_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      row.id,
      row.projectId,
      row.feedbackText,
      row.classification,
      row.confidence,
      row.summary,
      row.userId,
      row.email,
      row.pageUrl,
      row.rating,
      row.categoryHint,
      row.changelogEntryId,
      row.createdAt,
    ],
  );
}

/**
 * Erasure (infra/erasure): the text stays (it is about the product); the email and the user id
 * that name the person go. Answers how many feedback rows were blanked.
 */
export async function blankPersonInFeedback(em: EntityManager, person: PersonToErase): Promise<ErasedRecords> {
  const [userId] = person.userIds;
  let count = 0;
  if (person.email !== null) {
    const byEmail = erasedRowsOf(
      await em.query(
        'UPDATE feedback SET email = NULL, user_id = CASE WHEN user_id = $3 THEN NULL ELSE user_id END WHERE project_id = $1 AND email = $2',
        [person.projectId, person.email, userId ?? null],
      ),
    );
    count += byEmail.count;
  }
  for (const id of person.userIds) {
    count += erasedRowsOf(
      await em.query('UPDATE feedback SET user_id = NULL WHERE project_id = $1 AND user_id = $2', [person.projectId, id]),
    ).count;
  }
  return { count, recordIds: [] };
}

/**
 * Fragment for the changelog's entry numbers (FeedbackService re-exports it): how many feedback
 * records of the project `projectIdSql` name the entry `entryIdSql`, as a scalar subquery.
 */
export function feedbackCountOfEntry(projectIdSql: string, entryIdSql: string): string {
  return `(SELECT count(*) FROM feedback f WHERE f.project_id = ${projectIdSql} AND f.changelog_entry_id = ${entryIdSql})`;
}
