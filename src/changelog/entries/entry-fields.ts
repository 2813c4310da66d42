import { ApiError } from '../../common/errors/api-error';
import type { AnnouncementStyle, EntryAudience, EntryCategory } from '../entities/changelog-entry.entity';
import type { SegmentRule } from '../shared/segment-rule';

/**
 * The fields of a changelog entry (spec: Changelog entry input, Limits) as an owner sets them: their
 * limits, their stored form `EntryValues`, their wire names and the defaults of a new entry. The DTOs
 * check types and lengths; the rules over the fields are pure functions beside this file: parsing
 * what a request sent (entry-parsing.ts, segment-rule-parsing.ts), what it changed
 * (entry-changes.ts), the checks across fields, URLs, markdown links and times (entry-checks.ts),
 * and the status it asks for (entry-status.ts). Each failure is a VALIDATION_ERROR whose `param`
 * names the field as the client sent it.
 */
export const ENTRY_LIMITS = {
  titleMax: 200,
  bodyMax: 50_000,
  versionMax: 64,
  ctaLabelMax: 80,
  urlMax: 2048,
  labelsMax: 100,
  segmentKeyMax: 100,
  segmentValueMax: 256,
  segmentListMax: 100,
} as const;

export interface Announcement {
  style: AnnouncementStyle;
  until: Date;
}

/** Everything an owner can set on an entry, with the entity's names (labels as slugs). */
export interface EntryValues {
  title: string;
  bodyMarkdown: string;
  version: string | null;
  category: EntryCategory;
  scheduledAt: Date | null;
  coverImageUrl: string | null;
  ctaLabel: string | null;
  ctaUrl: string | null;
  labels: string[];
  audience: EntryAudience;
  segment: SegmentRule | null;
  pinned: boolean;
  expiresAt: Date | null;
  announcement: Announcement | null;
  notifySubscribers: boolean;
  notifyInApp: boolean;
  notifyChat: boolean;
}

export type EntryField = keyof EntryValues;

/** The wire name of each field, for `param`. */
export const WIRE_NAMES: Readonly<Record<EntryField, string>> = {
  title: 'title',
  bodyMarkdown: 'body_markdown',
  version: 'version',
  category: 'category',
  scheduledAt: 'scheduled_at',
  coverImageUrl: 'cover_image_url',
  ctaLabel: 'cta_label',
  ctaUrl: 'cta_url',
  labels: 'labels',
  audience: 'audience',
  segment: 'segment',
  pinned: 'pinned',
  expiresAt: 'expires_at',
  announcement: 'announcement',
  notifySubscribers: 'notify_subscribers',
  notifyInApp: 'notify_in_app',
  notifyChat: 'notify_chat',
};

/** Spec: a published entry may still change how it is shown, nothing else. */
export const EDITABLE_WHEN_PUBLISHED: ReadonlySet<EntryField> = new Set<EntryField>(['labels', 'pinned', 'expiresAt', 'announcement']);

/** The entry fields of a request body (create or update), as the client sent them. */
export interface EntryFieldsInput {
  title?: string;
  body_markdown?: string;
  version?: string | null;
  category?: EntryCategory;
  scheduled_at?: string | null;
  cover_image_url?: string | null;
  cta_label?: string | null;
  cta_url?: string | null;
  labels?: string[];
  audience?: EntryAudience;
  segment?: object | null;
  pinned?: boolean;
  expires_at?: string | null;
  announcement?: { style: AnnouncementStyle; until: string } | null;
  notify_subscribers?: boolean;
  notify_in_app?: boolean;
  notify_chat?: boolean;
}

export function invalid(param: string, message: string, remediation?: string): ApiError {
  return new ApiError('VALIDATION_ERROR', message, { param, remediation });
}

/** The defaults of a new entry (spec: audience public, notify_chat true, the other switches off). */
export const NEW_ENTRY_DEFAULTS: Omit<EntryValues, 'title' | 'bodyMarkdown' | 'category'> = {
  version: null,
  scheduledAt: null,
  coverImageUrl: null,
  ctaLabel: null,
  ctaUrl: null,
  labels: [],
  audience: 'public',
  segment: null,
  pinned: false,
  expiresAt: null,
  announcement: null,
  notifySubscribers: false,
  notifyInApp: false,
  notifyChat: true,
};
