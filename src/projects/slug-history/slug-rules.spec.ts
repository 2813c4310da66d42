import { isHeldFrom, nextSlugChangeAt, slugChangeWindowStart } from './slug-rules';

const at = (iso: string) => new Date(iso);

describe('slug rules', () => {
  it('holds a released slug from other projects for 30 days, never from its own project', () => {
    const hold = { slug: 'acme', projectId: 'prj_a', releasedAt: at('2026-01-01T00:00:00Z') };
    expect(isHeldFrom(hold, 'prj_b', at('2026-01-30T23:59:59Z'))).toBe(true);
    expect(isHeldFrom(hold, null, at('2026-01-30T23:59:59Z'))).toBe(true);
    expect(isHeldFrom(hold, 'prj_b', at('2026-01-31T00:00:00Z'))).toBe(false);
    expect(isHeldFrom(hold, 'prj_a', at('2026-01-02T00:00:00Z'))).toBe(false);
    expect(isHeldFrom(null, 'prj_b', at('2026-01-02T00:00:00Z'))).toBe(false);
    expect(isHeldFrom({ ...hold, projectId: null }, 'prj_a', at('2026-01-02T00:00:00Z'))).toBe(true);
  });

  it('allows two counted changes per 30 days and names when the next one is allowed', () => {
    expect(nextSlugChangeAt([])).toBeNull();
    expect(nextSlugChangeAt([at('2026-01-01T00:00:00Z')])).toBeNull();
    expect(nextSlugChangeAt([at('2026-01-01T00:00:00Z'), at('2026-01-10T00:00:00Z')])).toEqual(at('2026-01-31T00:00:00Z'));
    expect(slugChangeWindowStart(at('2026-01-31T00:00:00Z'))).toEqual(at('2026-01-01T00:00:00Z'));
  });
});
