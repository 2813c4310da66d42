import type { EntityManager } from 'typeorm';
import { projectsAs } from '../../projects/projects.queries';
import type { EntryCategory } from '../entities/changelog-entry.entity';
import type { LabelColour } from '../entities/changelog-label.entity';
import { containsPattern, publicEntryCondition } from '../shared/public-set';

/**
 * The public set of a project (spec: Public changelog entry; issue 9 item 6): published,
 * public-audience entries that have not expired, pinned first, then newest `published_at`, then id.
 * Every public surface (JSON, hosted page, feeds, view counting) reads it through this file, so
 * they cannot disagree. The rows come from `IX_ENTRIES_PUBLIC`, walked backwards: its columns
 * (project_id, pinned, published_at, id) are the order, and its predicate is the status/audience
 * filter; only `expires_at` and the optional filters are checked on the rows it yields.
 */
export interface PublicLabel {
  slug: string;
  name: string;
  colour: LabelColour;
}

export interface PublicEntryRow {
  id: string;
  title: string;
  bodyMarkdown: string;
  version: string | null;
  category: EntryCategory;
  publishedAt: Date;
  pinned: boolean;
  coverImageUrl: string | null;
  ctaLabel: string | null;
  ctaUrl: string | null;
  labels: PublicLabel[];
}

export interface PublicProjectRow {
  id: string;
  slug: string;
  name: string;
  createdAt: Date;
}

/** A project found by slug, its public entries (maybe none) and, when asked, its labels in use. */
export interface PublicChangelog {
  project: PublicProjectRow;
  entries: PublicEntryRow[];
  /** Labels on at least one public entry (a label of drafts only may name something unreleased). */
  labels: PublicLabel[];
  /** The first `expires_at` after now among the public entries: the set changes then without a write. */
  nextExpiry: Date | null;
}

export interface PublicSetFilter {
  now: Date;
  limit: number;
  /** A label slug; an unknown one matches nothing. */
  label?: string | null;
  /** Case-insensitive substring of the title or the body. */
  q?: string | null;
  /** One entry only (the hosted entry page). */
  entryId?: string | null;
  /** Also list the labels in use (the hosted page's filter links). */
  withLabels?: boolean;
}

const LABELS_OF_ENTRY = `(SELECT coalesce(json_agg(json_build_object('slug', l.slug, 'name', l.name, 'colour', l.colour) ORDER BY l.name, l.slug), '[]')
     FROM changelog_entry_labels el JOIN changelog_labels l ON l.id = el.label_id WHERE el.entry_id = e.id)`;

const LABELS_IN_USE = `(SELECT coalesce(json_agg(json_build_object('slug', l.slug, 'name', l.name, 'colour', l.colour) ORDER BY l.name, l.slug), '[]')
     FROM changelog_labels l WHERE l.project_id = p.id AND EXISTS (
       SELECT 1 FROM changelog_entry_labels el JOIN changelog_entries e ON e.id = el.entry_id
       WHERE el.label_id = l.id AND e.project_id = p.id AND ${publicEntryCondition('$2')}))`;

/**
 * One statement per response (issue 9 item 11): the project by its unique slug, LEFT JOINed to the
 * page of its public set, each entry with its labels as JSON. An unknown slug gives no row; a known
 * slug with nothing public gives one row with a null entry. Raw SQL because the lateral join, the
 * JSON aggregates and the backward index walk are the point, and this runs on every public read.
 */
export async function readPublicChangelog(em: EntityManager, slug: string, filter: PublicSetFilter): Promise<PublicChangelog | null> {
  const sql = `SELECT p.id AS project_id, p.slug AS project_slug, p.name AS project_name, p.created_at AS project_created_at,
      ${filter.withLabels ? LABELS_IN_USE : `'[]'::json`} AS project_labels,
      (SELECT min(x.expires_at) FROM changelog_entries x
        WHERE x.project_id = p.id AND x.status = 'published' AND x.audience = 'public' AND x.expires_at > $2) AS project_next_expiry,
      e.*
    FROM ${projectsAs('p')}
    LEFT JOIN LATERAL (
      SELECT e.id, e.title, e.body_markdown, e.version, e.category, e.published_at, e.pinned, e.cover_image_url, e.cta_label, e.cta_url,
        ${LABELS_OF_ENTRY} AS labels
      FROM changelog_entries e
      WHERE e.project_id = p.id AND ${publicEntryCondition('$2')}
        AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM changelog_entry_labels el JOIN changelog_labels l ON l.id = el.label_id
                                          WHERE el.entry_id = e.id AND l.project_id = p.id AND l.slug = $3))
        AND ($4::text IS NULL OR e.title ILIKE $4 OR e.body_markdown ILIKE $4)
        AND ($5::text IS NULL OR e.id = $5)
      ORDER BY e.pinned DESC, e.published_at DESC, e.id DESC
      LIMIT $6
    ) e ON true
    WHERE p.slug = $1
    ORDER BY e.pinned DESC, e.published_at DESC, e.id DESC`;
  const rows: Record<string, unknown>[] = await em.query(sql, [
    slug,
    filter.now,
    filter.label ?? null,
    filter.q ? containsPattern(filter.q) : null,
    filter.entryId ?? null,
    filter.limit,
  ]);
  if (rows.length === 0) return null;
  const first = rows[0];
  return {
    project: {
      id: first.project_id as string,
      slug: first.project_slug as string,
      name: first.project_name as string,
      createdAt: first.project_created_at as Date,
    },
    entries: rows.filter((row) => row.id !== null).map(toPublicEntryRow),
    labels: first.project_labels as PublicLabel[],
    nextExpiry: first.project_next_expiry ? new Date(first.project_next_expiry as string) : null,
  };
}

function toPublicEntryRow(row: Record<string, unknown>): PublicEntryRow {
  return {
    id: row.id as string,
    title: row.title as string,
    bodyMarkdown: row.body_markdown as string,
    version: row.version as string | null,
    category: row.category as EntryCategory,
    publishedAt: row.published_at as Date,
    pinned: row.pinned as boolean,
    coverImageUrl: row.cover_image_url as string | null,
    ctaLabel: row.cta_label as string | null,
    ctaUrl: row.cta_url as string | null,
    labels: row.labels as PublicLabel[],
  };
}

/**
 * Which of `entryIds` are in the public set of the project with this slug now: the hosted page
 * counts views and clicks only of what it may show. `projectId` is null for an unknown slug.
 */
export async function publicEntryIdsOf(
  em: EntityManager,
  slug: string,
  entryIds: readonly string[],
  now: Date,
): Promise<{ projectId: string | null; entryIds: string[] }> {
  const rows: { project_id: string; entry_id: string | null }[] = await em.query(
    `SELECT p.id AS project_id, e.id AS entry_id
     FROM ${projectsAs('p')}
     LEFT JOIN changelog_entries e ON e.project_id = p.id AND e.id = ANY($2) AND ${publicEntryCondition('$3')}
     WHERE p.slug = $1`,
    [slug, [...new Set(entryIds)], now],
  );
  return {
    projectId: rows[0]?.project_id ?? null,
    entryIds: rows.flatMap((row) => (row.entry_id === null ? [] : [row.entry_id])),
  };
}
