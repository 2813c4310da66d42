import type { EntryStatus } from '../entities/changelog-entry.entity';
import { invalid } from './entry-fields';

/** The status a create request asks for (spec: States and transitions → Changelog entry). */
export function statusOnCreate(draft: boolean, scheduledAt: Date | null): EntryStatus {
  if (draft) {
    if (scheduledAt !== null) {
      throw invalid(
        'status',
        'A draft has no scheduled_at.',
        'Send status "draft" to keep it unpublished, or scheduled_at to publish it later, not both.',
      );
    }
    return 'draft';
  }
  return scheduledAt === null ? 'published' : 'scheduled';
}

/** Published and scheduled entries hold a place under the Free cap (as countReservedEntries counts them). */
export function holdsPlanSlot(status: EntryStatus): boolean {
  return status === 'published' || status === 'scheduled';
}
