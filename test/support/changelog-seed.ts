import { newId } from '../../src/common/ids/ids';
import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { ChangelogEntryLabelEntity } from '../../src/changelog/entities/changelog-entry-label.entity';
import { ChangelogLabelEntity, type LabelColour } from '../../src/changelog/entities/changelog-label.entity';
import type { TestApp } from './test-app';
import { PublicChangelogCache } from '../../src/changelog/public/public-changelog.cache';

/**
 * Changelog rows written straight to the database, for suites that need entries without going
 * through the owner API (and for rows the API would refuse, such as unsafe markdown stored before
 * a rule existed). Defaults: a published, public, unpinned `feature` entry, published one minute
 * before the test clock's now.
 */
export interface SeedEntryInput extends Partial<Omit<ChangelogEntryEntity, 'project'>> {
  /** Label slugs; missing labels of the project are created (name = slug, colour blue). */
  labels?: string[];
}

export async function seedLabel(
  t: TestApp,
  projectId: string,
  input: { slug: string; name?: string; colour?: LabelColour },
): Promise<ChangelogLabelEntity> {
  const repo = t.db.manager.getRepository(ChangelogLabelEntity);
  const existing = await repo.findOne({ where: { projectId, slug: input.slug } });
  if (existing) return existing;
  const now = t.clock.now();
  return repo.save(
    Object.assign(new ChangelogLabelEntity(), {
      id: newId('lbl'),
      projectId,
      slug: input.slug,
      name: input.name ?? input.slug,
      colour: input.colour ?? 'blue',
      createdAt: now,
      updatedAt: now,
    }),
  );
}

export async function seedEntry(t: TestApp, projectId: string, input: SeedEntryInput = {}): Promise<ChangelogEntryEntity> {
  const { labels = [], ...fields } = input;
  const now = t.clock.now();
  const status = fields.status ?? 'published';
  const entry = Object.assign(new ChangelogEntryEntity(), {
    id: newId('ce'),
    projectId,
    title: 'An update',
    bodyMarkdown: 'Something changed.',
    version: null,
    category: 'feature',
    status,
    statusBeforeArchive: null,
    scheduledAt: null,
    publishedAt: status === 'published' || status === 'archived' ? new Date(now.getTime() - 60_000) : null,
    archivedAt: null,
    coverImageUrl: null,
    ctaLabel: null,
    ctaUrl: null,
    audience: 'public',
    segment: null,
    pinned: false,
    expiresAt: null,
    announcementStyle: null,
    announcementUntil: null,
    notifySubscribers: false,
    notifyInApp: false,
    notifyChat: true,
    createdAt: now,
    updatedAt: now,
    ...fields,
  } satisfies Omit<ChangelogEntryEntity, 'project'>);
  await t.db.manager.getRepository(ChangelogEntryEntity).insert(entry);
  for (const slug of labels) {
    const label = await seedLabel(t, projectId, { slug });
    await t.db.manager.getRepository(ChangelogEntryLabelEntity).insert({ entryId: entry.id, labelId: label.id });
  }
  // As the entry services do: no process keeps a public answer that predates it.
  await t.get(PublicChangelogCache).announce(t.db.manager, projectId);
  return entry;
}

/** `count` published entries, one minute apart, the last one newest; titles "Update 1"… */
export async function seedEntries(
  t: TestApp,
  projectId: string,
  count: number,
  input: SeedEntryInput = {},
): Promise<ChangelogEntryEntity[]> {
  const now = t.clock.now().getTime();
  const entries: ChangelogEntryEntity[] = [];
  for (let i = 1; i <= count; i += 1) {
    entries.push(await seedEntry(t, projectId, { title: `Update ${i}`, publishedAt: new Date(now - (count - i + 1) * 60_000), ...input }));
  }
  return entries;
}

/** What `POST /v1/changelog/entries` takes (spec: Changelog entry input); title and category have defaults here. */
export interface PublishInput {
  title?: string;
  body_markdown?: string;
  category?: string;
  version?: string;
  labels?: string[];
  pinned?: boolean;
  cover_image_url?: string;
  cta_label?: string;
  cta_url?: string;
  audience?: string;
  announcement?: { style: 'modal' | 'banner' | 'toast'; until: string };
}

/**
 * Publishes an entry through the owner API, as an integrator does, one minute (by the app's clock)
 * after the previous one, so that entries published in a row keep their order. Answers its id.
 */
export async function publishEntry(t: TestApp, secretKey: string, input: PublishInput = {}): Promise<string> {
  t.clock.advance(60_000);
  const res = await t.api
    .as(secretKey)
    .post('/v1/changelog/entries')
    .send({ title: 'An update', body_markdown: 'Something changed.', category: 'feature', ...input })
    .expect(201);
  return res.body.data.id as string;
}
