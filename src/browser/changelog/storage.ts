/**
 * What the widget keeps in the visitor's browser (localStorage of the host page): the anonymous
 * `client_id` that reactions need (spec: Reaction set), and per project the time of the last visit
 * (the New badge) and the announcements already shown (their `once_key`). Storage may be missing or
 * refuse to write (a private window, blocked site data, a full quota): the values then last as long
 * as the page.
 */
const PREFIX = 'launch-changelog:';
const memory = new Map<string, string>();
const CLIENT_ID = /^[\w-]{8,64}$/;
// Enough once keys for every announcement a visitor meets while it is live; the oldest go first.
const ANNOUNCED_KEPT = 20;

function load(name: string): string | null {
  try {
    return memory.get(name) ?? localStorage.getItem(PREFIX + name);
  } catch {
    return null;
  }
}

function store(name: string, value: string): void {
  memory.set(name, value);
  try {
    localStorage.setItem(PREFIX + name, value);
  } catch {
    // kept in memory for this page
  }
}

/** This browser's random id (22 URL-safe characters from the CSPRNG), made on first use. */
export function clientId(): string {
  let id = load('client-id');
  if (!id || !CLIENT_ID.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    store('client-id', id);
  }
  return id;
}

interface ProjectRecord {
  /** The last visit: when the list last rendered (ISO time). */
  visit?: string;
  announced?: string[];
}

/** A project's record, named by its hosted page address (unique per project and server). */
function record(project: string): ProjectRecord {
  try {
    const value: unknown = JSON.parse(load(`project:${project}`) ?? '{}');
    return value && typeof value === 'object' ? (value as ProjectRecord) : {};
  } catch {
    return {};
  }
}

const update = (project: string, change: ProjectRecord) => store(`project:${project}`, JSON.stringify({ ...record(project), ...change }));

// The visit before this page load: read once, so that every widget on the page shows the same badges.
const previousVisits = new Map<string, number | null>();

/** When this browser last saw the project's list before this page (ms), or null on a first visit. */
export function previousVisit(project: string): number | null {
  if (!previousVisits.has(project)) {
    const time = Date.parse(record(project).visit ?? '');
    previousVisits.set(project, Number.isNaN(time) ? null : time);
  }
  return previousVisits.get(project) ?? null;
}

/** Remembers `time` (ms) as the last visit, never moving it back. */
export function recordVisit(project: string, time: number): void {
  previousVisit(project);
  const stored = Date.parse(record(project).visit ?? '');
  if (Number.isNaN(stored) || time > stored) update(project, { visit: new Date(time).toISOString() });
}

export function wasAnnounced(project: string, onceKey: string): boolean {
  return (record(project).announced ?? []).includes(onceKey);
}

export function markAnnounced(project: string, onceKey: string): void {
  const announced = (record(project).announced ?? []).filter((key) => key !== onceKey);
  update(project, { announced: [...announced, onceKey].slice(-ANNOUNCED_KEPT) });
}
