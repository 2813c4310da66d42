/** Spec: Label slugs, 1 to 40 lowercase letters, digits and hyphens. */
export const LABEL_SLUG_PATTERN = /^[a-z0-9-]{1,40}$/;
const LABEL_SLUG_MAX = 40;

/**
 * The slug a label gets from its name when none is sent: lowercase, every run of other characters
 * one "-", no "-" at either end, at most 40 characters; "label" when nothing is left (a name of
 * emoji only). Accents are dropped to their base letter ("Déjà vu" → "deja-vu").
 */
export function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, LABEL_SLUG_MAX)
    .replace(/-+$/, '');
  return slug || 'label';
}

/** `base`, or `base-2`, `base-3` … : the first not in `taken`, kept within 40 characters. */
export function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, LABEL_SLUG_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
