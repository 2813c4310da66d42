import type { EntityManager } from 'typeorm';
import { WithMeta } from '../../common/http/reply';
import { type EntryDto, toEntryDto, toEntryOptionsDto } from './dto/entry.dto';
import type { ChangelogEntryEntity } from '../entities/changelog-entry.entity';
import { labelSlugsOf } from './entries.queries';

/**
 * A single-entry answer: `data` is the owner view (exactly the spec's fields); `meta.entry_options`
 * carries the accepted-but-not-shown fields; `meta.announcement_replaced_entry_id` names the entry
 * whose announcement this request ended, when it ended one.
 */
export async function entryAnswer(
  em: EntityManager,
  row: ChangelogEntryEntity,
  publicUrl: string,
  replacedAnnouncementOf: string | null = null,
): Promise<WithMeta<EntryDto>> {
  const meta: Record<string, unknown> = { entry_options: toEntryOptionsDto(row, await labelSlugsOf(em, row.id)) };
  if (replacedAnnouncementOf) meta.announcement_replaced_entry_id = replacedAnnouncementOf;
  return new WithMeta(toEntryDto(row, publicUrl), meta);
}
