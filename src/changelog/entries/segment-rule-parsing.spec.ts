import { parseSegment } from './segment-rule-parsing';
import { apiFailureOf } from '../../../test/support/api-failure';

describe('parseSegment', () => {
  it('accepts every rule kind and fills the consent status', () => {
    expect(
      parseSegment({
        match: 'any',
        rules: [
          { type: 'detail', key: 'plan', op: 'eq', value: 'pro' },
          { type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] },
          { type: 'detail', key: 'company', op: 'exists' },
          { type: 'consent', purpose: 'product_updates' },
        ],
      }),
    ).toEqual({
      match: 'any',
      rules: [
        { type: 'detail', key: 'plan', op: 'eq', value: 'pro' },
        { type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] },
        { type: 'detail', key: 'company', op: 'exists' },
        { type: 'consent', purpose: 'product_updates', status: 'granted' },
      ],
    });
  });

  const rule = { type: 'detail', key: 'plan', op: 'eq', value: 'pro' };
  it.each([
    ['not an object', [], 'segment'],
    ['a bad match', { match: 'some', rules: [rule] }, 'segment.match'],
    ['no rules', { match: 'all', rules: [] }, 'segment.rules'],
    ['11 rules', { match: 'all', rules: Array(11).fill(rule) }, 'segment.rules'],
    ['an unknown key', { match: 'all', rules: [rule], extra: 1 }, 'segment.extra'],
    ['a bad type', { match: 'all', rules: [rule, { type: 'x' }] }, 'segment.rules[1].type'],
    ['a bad op', { match: 'all', rules: [rule, rule, rule, { ...rule, op: 'gt' }] }, 'segment.rules[3].op'],
    ['eq with a list', { match: 'all', rules: [{ ...rule, value: ['a'] }] }, 'segment.rules[0].value'],
    ['in with a string', { match: 'all', rules: [{ ...rule, op: 'in', value: 'a' }] }, 'segment.rules[0].value'],
    ['in with a number', { match: 'all', rules: [{ ...rule, op: 'in', value: ['a', 2] }] }, 'segment.rules[0].value[1]'],
    ['exists with a value', { match: 'all', rules: [{ ...rule, op: 'exists' }] }, 'segment.rules[0].value'],
    ['no key', { match: 'all', rules: [{ type: 'detail', op: 'exists' }] }, 'segment.rules[0].key'],
    ['a bad consent status', { match: 'all', rules: [{ type: 'consent', purpose: 'p', status: 'maybe' }] }, 'segment.rules[0].status'],
    ['consent without purpose', { match: 'all', rules: [{ type: 'consent' }] }, 'segment.rules[0].purpose'],
  ])('refuses %s', (_what, segment, param) => {
    expect(apiFailureOf(() => parseSegment(segment))).toMatchObject({ code: 'VALIDATION_ERROR', param });
  });
});
