import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PersonToErase } from './person-match';

/**
 * One module's part of an erasure: removes or blanks what its own tables hold of the person, in
 * the erasure's transaction (`em`), and answers how many rows it touched.
 */
type ErasureContribution = (em: EntityManager, person: PersonToErase) => Promise<number>;

/** What a contribution of the person's own records removed or blanked, with the ids of the records it deleted. */
export interface ErasedRecords {
  count: number;
  recordIds: string[];
}

/**
 * One module's part of an erasure that removes the person's own records (signups, subscribers,
 * bell rows, reactions) or blanks them, in the erasure's transaction. These run before the contact
 * itself and before the stored copies: the ids they answer let a copy be recognised by them.
 * `person.recordIds` is empty here.
 */
type RecordsErasure = (em: EntityManager, person: PersonToErase) => Promise<ErasedRecords>;

/**
 * How many rows a DELETE or UPDATE removed or blanked, from what TypeORM answers, and the ids its
 * RETURNING id named. A statement that counts for itself (a CTE ending in `SELECT … AS n`) answers
 * one row with `n`.
 */
export function erasedRowsOf(result: unknown): ErasedRecords {
  const [first] = result as { n?: unknown }[];
  if (!Array.isArray(first) && typeof first?.n === 'number') return { count: first.n, recordIds: [] };
  // TypeORM answers DELETE and UPDATE with [rows, affected count]; rows hold what RETURNING named.
  const [rows, count] = result as [{ id?: unknown }[], number];
  return { count, recordIds: rows.flatMap((row) => (typeof row.id === 'string' ? [row.id] : [])) };
}

/**
 * Erasure across modules (ARCHITECTURE: data ownership). A module whose tables can hold a person's
 * email or user id contributes its statements at start, under the name the erasure answer counts
 * them by; its SQL stays in its own *.queries.ts. Two kinds: the person's own records
 * (`contributeRecords`: waitlist signups, feedback, subscribers, bell rows, reactions) run first,
 * then the contact goes, then stored copies that may name the person (`contribute`: mail, event
 * payloads, idempotent answers, webhook responses, payment customers). It lives in infra/ so that
 * infra and platform modules can contribute as well as features.
 */
@Injectable()
export class ErasureRegistry {
  private readonly records = new Map<string, RecordsErasure>();
  private readonly copies = new Map<string, ErasureContribution>();

  /** A module's statements for the person's own records, counted under `kind`. */
  contributeRecords(kind: string, erasure: RecordsErasure): void {
    this.assertNew(kind);
    this.records.set(kind, erasure);
  }

  /** A module's statements for stored copies that may name the person, counted under `kind`. */
  contribute(kind: string, contribution: ErasureContribution): void {
    this.assertNew(kind);
    this.copies.set(kind, contribution);
  }

  /** The names the contributions count under: records first, each in registration order. */
  kinds(): string[] {
    return [...this.records.keys(), ...this.copies.keys()];
  }

  /** Runs every records contribution in `em`'s transaction, one after the other; answers the counts and the deleted records' ids. */
  async eraseRecords(em: EntityManager, person: PersonToErase): Promise<{ counts: Record<string, number>; recordIds: string[] }> {
    const counts: Record<string, number> = {};
    const recordIds: string[] = [];
    for (const [kind, erasure] of this.records) {
      const erased = await erasure(em, person);
      counts[kind] = erased.count;
      recordIds.push(...erased.recordIds);
    }
    return { counts, recordIds };
  }

  /** Runs every copies contribution in `em`'s transaction, one after the other; answers the count per kind. */
  async eraseCopies(em: EntityManager, person: PersonToErase): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const [kind, contribution] of this.copies) counts[kind] = await contribution(em, person);
    return counts;
  }

  private assertNew(kind: string): void {
    // Two modules counting under one name would hide one of them from the answer.
    if (this.records.has(kind) || this.copies.has(kind)) throw new Error(`Two erasure contributions count "${kind}"`);
  }
}
