import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Re-seals one stored value: answers the value to store, the same string when it is already sealed
 * under the new key. Throws when it opens under neither key; `rowId` names the row in that error.
 */
export type Reseal = (sealed: string, rowId: string) => string;

/** The sealed columns of one table, contributed by the module that owns the table. */
interface SealedValueSet {
  /** The owner's table, as `encryption:reseal` reports it. */
  readonly name: string;
  /** Any one stored value, to try a key on before the first fingerprint is recorded; null when none. */
  sample(em: EntityManager): Promise<string | null>;
  /**
   * Replaces every stored value `v` by `reseal(v)`, with the rows locked for update, and writes only
   * rows whose values changed. Runs inside the re-seal's one transaction.
   */
  resealAll(em: EntityManager, reseal: Reseal): Promise<void>;
}

/**
 * Every place a value sealed with ENCRYPTION_KEY is stored (common/crypto/secret-box.ts), as a
 * registry: each owning module registers its own set, with SQL that names its table only in its
 * own `*.queries.ts`, so `encryption:reseal` and the start-up check reach every sealed value
 * without knowing any feature. Register in the constructor of the owner's service: the start-up
 * check runs at module init, before the features' own init hooks.
 */
@Injectable()
export class SealedValues {
  private readonly sets = new Map<string, SealedValueSet>();

  register(set: SealedValueSet): void {
    if (this.sets.has(set.name)) throw new Error(`sealed values "${set.name}" are registered twice`);
    this.sets.set(set.name, set);
  }

  /** Every registered set, by name. */
  all(): SealedValueSet[] {
    return [...this.sets.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
