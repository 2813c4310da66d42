import { decodeCursor } from './cursor';
import { LINE_ORDER, newestFirst, toPage } from './list-page';

const rows = [1, 2, 3].map((position) => ({ position, id: `row${position}` }));

describe('toPage', () => {
  it('maps the first `limit` rows and points the cursor at the last of them when more exist', () => {
    const page = toPage(rows, 2, LINE_ORDER.key, (row) => row.id);
    expect(page.items).toEqual(['row1', 'row2']);
    expect(decodeCursor(page.nextCursor as string, LINE_ORDER.key)).toBe(2);
  });

  it('has no cursor when the extra row is missing', () => {
    expect(toPage(rows, 3, LINE_ORDER.key, (row) => row.position)).toMatchObject({ items: [1, 2, 3], nextCursor: null });
    expect(toPage([], 3, LINE_ORDER.key, (row) => row)).toMatchObject({ items: [], nextCursor: null });
  });
});

describe('list orders', () => {
  it('newest first is id descending with the prefix of the list', () => {
    expect(newestFirst('ct')).toEqual({ key: { field: 'id', prefix: 'ct' }, direction: 'DESC' });
  });
});
