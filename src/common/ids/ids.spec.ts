import { idPattern, isId, newId } from './ids';

describe('ids', () => {
  it('are a prefix and 26 characters of uppercase Crockford base32', () => {
    const id = newId('ws');
    expect(id).toMatch(/^ws_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId('ws', id)).toBe(true);
    expect(isId('ce', id)).toBe(false);
    expect(idPattern('prj').test('prj_01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe(true);
    expect(isId('prj', 'prj_01arz3ndektsv4rrffq69g5fav')).toBe(false);
  });

  it('sort in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newId('evt'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('use the whole random alphabet', () => {
    const randomParts = Array.from({ length: 2000 }, () => newId('req').slice(14)).join('');
    expect(new Set(randomParts).size).toBe(32);
  });
});
