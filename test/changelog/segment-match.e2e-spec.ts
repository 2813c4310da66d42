import type { SegmentRule } from '../../src/changelog/shared/segment-rule';
import { TestApp } from '../support/test-app';

/**
 * `changelog_segment_matches`, the SQL function behind segment audiences (spec: Segment rule), on
 * the real database: every operator, both matches, consents, and the edge cases docs/changelog.md states.
 */
describe('changelog_segment_matches (database)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  async function matches(
    rule: SegmentRule,
    details: Record<string, unknown>,
    consents: Record<string, { status: string }> = {},
  ): Promise<boolean> {
    const [row]: { m: boolean }[] = await t.db.manager.query('SELECT changelog_segment_matches($1::jsonb, $2::jsonb, $3::jsonb) AS m', [
      JSON.stringify(rule),
      JSON.stringify(details),
      JSON.stringify(consents),
    ]);
    return row.m;
  }

  const all = (...rules: SegmentRule['rules']): SegmentRule => ({ match: 'all', rules });
  const any = (...rules: SegmentRule['rules']): SegmentRule => ({ match: 'any', rules });

  it.each([
    ['eq on an equal value', all({ type: 'detail', key: 'plan', op: 'eq', value: 'pro' }), { plan: 'pro' }, true],
    ['eq on another value', all({ type: 'detail', key: 'plan', op: 'eq', value: 'pro' }), { plan: 'free' }, false],
    ['eq without the detail', all({ type: 'detail', key: 'plan', op: 'eq', value: 'pro' }), {}, false],
    ['eq comparing a number as text', all({ type: 'detail', key: 'seats', op: 'eq', value: '3' }), { seats: 3 }, true],
    ['eq comparing a boolean as text', all({ type: 'detail', key: 'beta', op: 'eq', value: 'true' }), { beta: true }, true],
    ['neq on another value', all({ type: 'detail', key: 'plan', op: 'neq', value: 'free' }), { plan: 'pro' }, true],
    ['neq on the same value', all({ type: 'detail', key: 'plan', op: 'neq', value: 'free' }), { plan: 'free' }, false],
    ['neq without the detail', all({ type: 'detail', key: 'plan', op: 'neq', value: 'free' }), {}, true],
    ['in with a listed value', all({ type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] }), { plan: 'team' }, true],
    ['in with another value', all({ type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] }), { plan: 'free' }, false],
    ['exists with the detail', all({ type: 'detail', key: 'company', op: 'exists' }), { company: 'Acme' }, true],
    ['exists without it', all({ type: 'detail', key: 'company', op: 'exists' }), { other: 1 }, false],
    ['all with one failing', all({ type: 'detail', key: 'a', op: 'exists' }, { type: 'detail', key: 'b', op: 'exists' }), { a: 1 }, false],
    ['any with one passing', any({ type: 'detail', key: 'a', op: 'exists' }, { type: 'detail', key: 'b', op: 'exists' }), { a: 1 }, true],
    ['any with none passing', any({ type: 'detail', key: 'a', op: 'exists' }, { type: 'detail', key: 'b', op: 'exists' }), {}, false],
    ['no rules', all(), { a: 1 }, false],
  ] as const)('%s', async (_case, rule, details, expected) => {
    expect(await matches(rule as SegmentRule, details)).toBe(expected);
  });

  it.each([
    ['granted when granted', 'granted', { beta: { status: 'granted' } }, true],
    ['granted when withdrawn', 'granted', { beta: { status: 'withdrawn' } }, false],
    ['granted without a record', 'granted', {}, false],
    ['withdrawn when withdrawn', 'withdrawn', { beta: { status: 'withdrawn' } }, true],
    ['withdrawn without a record', 'withdrawn', {}, false],
  ] as const)('consent %s', async (_case, status, consents, expected) => {
    expect(await matches(all({ type: 'consent', purpose: 'beta', status }), {}, consents)).toBe(expected);
  });

  it('takes a consent rule without status as granted', async () => {
    const rule = { match: 'all', rules: [{ type: 'consent', purpose: 'beta' }] } as unknown as SegmentRule;
    expect(await matches(rule, {}, { beta: { status: 'granted' } })).toBe(true);
  });
});
