import { CreateDraftDto } from '../../changelog/drafts/dto/create-draft.dto';
import { DraftDto } from '../../changelog/drafts/dto/draft.dto';
import { DraftsService } from '../../changelog/drafts/drafts.service';
import { CreateEntryDto } from '../../changelog/entries/dto/create-entry.dto';
import { EntryDto } from '../../changelog/entries/dto/entry.dto';
import { LabelDto } from '../../changelog/labels/dto/label.dto';
import { ListEntriesQueryDto } from '../../changelog/entries/dto/list-entries-query.dto';
import { UpdateEntryDto } from '../../changelog/entries/dto/update-entry.dto';
import { EntriesService } from '../../changelog/entries/entries.service';
import { EntryLifecycleService } from '../../changelog/entries/entry-lifecycle.service';
import { EntryStatsDto, LatestStatsQueryDto } from '../../changelog/stats/dto/entry-stats.dto';
import { EntryStatsService } from '../../changelog/stats/entry-stats.service';
import { LabelsService } from '../../changelog/labels/labels.service';
import { EndpointsService } from '../../webhooks/endpoints/endpoints.service';
import { PublishEntryToolDto } from '../dto/publish-entry-tool.dto';
import { McpIdempotency } from '../mcp-idempotency.service';
import { READ, type ToolDefinition, listOutput } from '../tool-kit';
import { dtoJsonSchema } from '../tool-schemas';
import type { ServiceResolver } from './service-resolver';

const ENTRY_ID = { prefix: 'ce', description: 'The changelog entry id (ce_…).' } as const;
// Publishing has its own tool, which previews first: an update never changes the status.
const PUBLISH_FIELDS = ['status', 'scheduled_at'];

/** The changelog group: entries from draft to published, drafts from commits, labels and numbers. */
export function changelogTools(app: ServiceResolver): ToolDefinition[] {
  const entries = app.get(EntriesService);
  const lifecycle = app.get(EntryLifecycleService);
  const stats = app.get(EntryStatsService);
  const labels = app.get(LabelsService);
  const drafts = app.get(DraftsService);
  const endpoints = app.get(EndpointsService);
  const idempotency = app.get(McpIdempotency);
  const entry = dtoJsonSchema(EntryDto, { closed: false });

  return [
    {
      name: 'list_changelog_entries',
      group: 'changelog',
      title: 'List changelog entries',
      description:
        'Lists the changelog entries of the project (drafts, scheduled, published, archived), newest first, with filters by status, category, label and text. Returns {items, next_cursor}; pass next_cursor as cursor for the next page. All plans.',
      annotations: READ,
      input: { dto: ListEntriesQueryDto, from: 'query' },
      rest: { method: 'get', path: '/v1/changelog/entries' },
      output: listOutput(entry),
      run: (caller, { input }) => entries.listEntries(caller.project, input as ListEntriesQueryDto, 'secret_key'),
    },
    {
      name: 'get_changelog_entry',
      group: 'changelog',
      title: 'Get a changelog entry',
      description: 'One changelog entry by id, with its status, text, labels, audience and public_url. All plans.',
      annotations: READ,
      input: { id: ENTRY_ID },
      rest: { method: 'get', path: '/v1/changelog/entries/{id}' },
      output: entry,
      run: (caller, { id }) => entries.getEntry(caller.project, id),
    },
    {
      name: 'create_changelog_entry',
      group: 'changelog',
      title: 'Create a changelog entry (draft)',
      description:
        'Creates a changelog entry as a DRAFT: nothing is published and nobody is told. Publish it afterwards with publish_changelog_entry. Returns the entry. All plans (announcements need Indie, segment audiences Builder). Pass idempotency_key so a retry does not create a second draft.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      input: { dto: CreateEntryDto, from: 'body', omit: PUBLISH_FIELDS, idempotent: true },
      rest: { method: 'post', path: '/v1/changelog/entries' },
      output: entry,
      run: (caller, args) =>
        idempotency.run(caller, 'create_changelog_entry', args, () =>
          entries.createEntry(caller.project, Object.assign(args.input as unknown as CreateEntryDto, { status: 'draft' as const })),
        ),
    },
    {
      name: 'update_changelog_entry',
      group: 'changelog',
      title: 'Update a changelog entry',
      description:
        'Changes fields of an entry (the REST PATCH fields, flat, beside id). A published entry changes only labels, pinned, expires_at and announcement (anything else answers CANNOT_EDIT_PUBLISHED). It never publishes or schedules: use publish_changelog_entry. Returns the entry. All plans.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      input: { id: ENTRY_ID, dto: UpdateEntryDto, from: 'body', omit: PUBLISH_FIELDS },
      rest: { method: 'patch', path: '/v1/changelog/entries/{id}' },
      output: entry,
      run: (caller, { id, input }) => entries.updateEntry(caller.project, id, input as UpdateEntryDto),
    },
    {
      name: 'publish_changelog_entry',
      group: 'changelog',
      title: 'Publish a changelog entry',
      description:
        'Publishes a draft or scheduled entry now, or schedules it for publish_at. Without confirm: true it changes nothing and answers a preview: the public URL, the audience, and how many bell users, email subscribers, chat and JSON webhook endpoints it would reach. Show that to the user, then call again with confirm: true. Publishing tells subscribers, bells and webhooks once and cannot be undone (archive hides it). Free plan: 25 published entries.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      input: { id: ENTRY_ID, dto: PublishEntryToolDto, from: 'body' },
      output: entry,
      preview: async (caller, { id, input }) => {
        const reach = await lifecycle.publicationReach(caller.project, id);
        const hooks = reach.first_publication ? await endpoints.subscribedEndpoints(caller.project, 'changelog.entry.published') : null;
        const publishAt = (input as PublishEntryToolDto).publish_at ?? null;
        return {
          action: publishAt ? 'schedule' : 'publish_now',
          entry_id: id,
          publish_at: publishAt,
          ...reach,
          chat_endpoints: hooks && reach.notify_chat ? hooks.chat : 0,
          json_endpoints: hooks ? hooks.json : 0,
        };
      },
      run: (caller, { id, input }) => {
        const publishAt = (input as PublishEntryToolDto).publish_at;
        const change = publishAt ? { scheduled_at: publishAt } : { status: 'published' as const };
        return entries.updateEntry(caller.project, id, Object.assign(new UpdateEntryDto(), change));
      },
    },
    {
      name: 'archive_changelog_entry',
      group: 'changelog',
      title: 'Archive a changelog entry',
      description:
        'Archives an entry: it leaves the widget, hosted page and feeds, its announcement ends and a pending schedule is dropped. Without confirm: true it changes nothing and answers a preview of the entry that would be archived. Returns the archived entry. All plans.',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      input: { id: ENTRY_ID },
      rest: { method: 'post', path: '/v1/changelog/entries/{id}/archive' },
      output: entry,
      preview: async (caller, { id }) => {
        const current = (await entries.getEntry(caller.project, id)).data;
        return { action: 'archive', entry_id: id, title: current.title, status: current.status, public_url: current.public_url };
      },
      run: (caller, { id }) => lifecycle.archiveEntry(caller.project, id),
    },
    {
      name: 'draft_changelog_from_commits',
      group: 'changelog',
      title: 'Draft a changelog entry from commits',
      description:
        'Sorts commit messages (git log lines) into a changelog draft: Breaking changes, Security, New, Improved, Fixed, Other changes; housekeeping, merges and version bumps are counted in skipped. Creates a DRAFT entry (never published) unless dry_run is true. Returns the draft with its markdown and the entry. All plans. Pass idempotency_key so a retry does not create a second draft.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      input: { dto: CreateDraftDto, from: 'body', idempotent: true },
      rest: { method: 'post', path: '/v1/changelog/drafts' },
      output: dtoJsonSchema(DraftDto, { closed: false }),
      run: (caller, args) =>
        idempotency.run(caller, 'draft_changelog_from_commits', args, () =>
          drafts.draftFromCommits(caller.project, args.input as unknown as CreateDraftDto),
        ),
    },
    {
      name: 'get_changelog_stats',
      group: 'changelog',
      title: 'Changelog numbers',
      description:
        'Per-entry numbers of the latest published entries, newest first: views and reactions on every plan; readers, button clicks and feedback from Indie up. Returns {items, next_cursor: null}.',
      annotations: READ,
      input: { dto: LatestStatsQueryDto, from: 'query' },
      rest: { method: 'get', path: '/v1/changelog/stats' },
      output: listOutput(dtoJsonSchema(EntryStatsDto, { closed: false })),
      run: (caller, { input }) => stats.latestStats(caller.project, input as LatestStatsQueryDto),
    },
    {
      name: 'list_changelog_labels',
      group: 'changelog',
      title: 'List changelog labels',
      description: 'The labels entries and subscribers can carry (name, slug, colour). Returns {items, next_cursor: null}. All plans.',
      annotations: READ,
      input: {},
      rest: { method: 'get', path: '/v1/changelog/labels' },
      output: listOutput(dtoJsonSchema(LabelDto, { closed: false })),
      run: (caller) => labels.listLabels(caller.project),
    },
  ];
}
