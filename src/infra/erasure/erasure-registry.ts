import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PersonToErase } from './person-match';

/**
 * One module's part of an erasure: removes or blanks what its own tables hold of the person, in
 * the erasure's transaction (`em`), and answers how many rows it touched.
 */
export type ErasureContribution = (em: EntityManager, person: PersonToErase) => Promise<number>;

/**
 * Erasure across modules (ARCHITECTURE: data ownership). A module whose tables can hold a person's
 * email or user id contributes its statement at start, under the name the erasure answer counts
 * it by; its SQL stays in its own *.queries.ts. It lives in infra/ so that infra and platform
 * modules (mail, idempotency, events) can contribute as well as features.
 */
@Injectable()
export class ErasureRegistry {
  private readonly contributions = new Map<string, ErasureContribution>();

  contribute(kind: string, contribution: ErasureContribution): void {
    // Two modules counting under one name would hide one of them from the answer.
    if (this.contributions.has(kind)) throw new Error(`Two erasure contributions count "${kind}"`);
    this.contributions.set(kind, contribution);
  }

  /** The names the contributions count under, in registration order. */
  kinds(): string[] {
    return [...this.contributions.keys()];
  }

  /** Runs every contribution in `em`'s transaction, one after the other; answers the count per kind. */
  async eraseEverywhere(em: EntityManager, person: PersonToErase): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const [kind, contribution] of this.contributions) counts[kind] = await contribution(em, person);
    return counts;
  }
}
