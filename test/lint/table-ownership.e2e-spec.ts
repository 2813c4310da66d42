import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type SourceFile, entityOwnersOf, moduleOf, ownerMapOf, ownershipViolations, tablesNamedIn } from './table-ownership';

const ROOT = join(__dirname, '../..');

/**
 * What the check reads of src/, and what it leaves out:
 * - migrations (src/infra/database/migrations/): they create and alter every module's tables, as
 *   the one ordered history of the schema;
 * - unit specs (*.spec.ts): test code, which quotes SQL as data (the log redaction spec feeds a
 *   statement to the logger) and sends none of it to the database.
 */
function isChecked(path: string): boolean {
  return path.endsWith('.ts') && !path.startsWith('src/infra/database/migrations/') && !path.endsWith('.spec.ts');
}

function sourcesUnder(folder: string): SourceFile[] {
  const entries = readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter(isChecked)
    .sort()
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

const entity = (path: string, table: string, className: string): SourceFile => ({
  path,
  text: `import { Entity } from 'typeorm';\n@Entity({ name: '${table}' })\nexport class ${className} {}\n`,
});

// Two modules of a planted tree, each owning one table.
const PLANTED_ENTITIES = [
  entity('src/books/entities/book.entity.ts', 'books', 'BookEntity'),
  entity('src/infra/shelves/entities/shelf.entity.ts', 'shelves', 'ShelfEntity'),
];

describe('data ownership: SQL names only its own module’s tables, from *.queries.ts files', () => {
  it('maps each table to the module folder of its entity', () => {
    const { owners, problems } = ownerMapOf(PLANTED_ENTITIES);
    expect(Object.fromEntries(owners)).toEqual({ books: 'books', shelves: 'infra/shelves' });
    expect(problems).toEqual([]);
    expect(moduleOf('src/books/loans/loans.queries.ts')).toBe('books');
    expect(moduleOf('src/infra/shelves/shelves.queries.ts')).toBe('infra/shelves');
    expect(moduleOf('src/books.queries.ts')).toBeNull();
    expect(moduleOf('src/infra/shelves.queries.ts')).toBeNull();
  });

  it('reads what follows FROM, JOIN, INTO and UPDATE, not string literals, comments or aliases', () => {
    // Words in a table's place that no entity declares (a CTE, the column of EXTRACT's FROM) come
    // out too; the check ignores them. The literal 'from shelves' and the comment are not read.
    expect(
      tablesNamedIn(`WITH gone AS (DELETE FROM books WHERE id = $1 RETURNING id)
        SELECT b.id, 'from shelves' AS note FROM public."Books" b, shelves s
        LEFT JOIN LATERAL (SELECT 1 FROM gone) g ON true -- JOIN readers
        WHERE extract(epoch FROM b.created_at) > 0`),
    ).toEqual(['books', 'books', 'shelves', 'gone', 'created_at']);
    expect(tablesNamedIn('INSERT INTO books (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id')).toEqual(['books', 'set']);
    expect(tablesNamedIn('UPDATE shelves s SET n = 1 FROM books b WHERE b.shelf_id = s.id')).toEqual(['shelves', 'books']);
  });

  it('fails on a queries file that names another module’s table', () => {
    const planted = {
      path: 'src/books/books.queries.ts',
      text: "export const SQL = `SELECT b.id FROM books b JOIN shelves s ON s.id = b.shelf_id WHERE b.id = ${'$1'}`;\n",
    };
    expect(ownershipViolations([...PLANTED_ENTITIES, planted])).toEqual([
      'src/books/books.queries.ts:1: names shelves, a table of infra/shelves',
    ]);
  });

  it('fails on SQL passed to query( outside a queries file: another module’s table, or even its own', () => {
    const planted = {
      path: 'src/books/books.service.ts',
      text: [
        'export class BooksService {',
        '  async count(em: Em) {',
        "    const sql = 'select count(*) from shelves';",
        '    await em.query(sql);',
        "    await this.db.manager.query('DELETE FROM books WHERE id = $1', [1]);",
        '  }',
        '}',
      ].join('\n'),
    };
    expect(ownershipViolations([...PLANTED_ENTITIES, planted])).toEqual([
      'src/books/books.service.ts:4: names shelves, a table of infra/shelves',
      'src/books/books.service.ts:5: SQL naming books outside a *.queries.ts file',
    ]);
  });

  it('fails on a query-builder condition that holds SQL naming another module’s table', () => {
    const planted = {
      path: 'src/books/books.service.ts',
      text: "qb.andWhere('EXISTS (SELECT 1 FROM shelves s WHERE s.id = b.shelf_id)');\n",
    };
    expect(ownershipViolations([...PLANTED_ENTITIES, planted])).toEqual([
      'src/books/books.service.ts:1: names shelves, a table of infra/shelves',
    ]);
  });

  it('fails on a queries file outside a module folder', () => {
    const misplaced = [
      { path: 'src/books.queries.ts', text: "export const SQL = 'SELECT 1';\n" },
      { path: 'src/infra/shelves.queries.ts', text: "export const SQL = 'SELECT 1';\n" },
    ];
    expect(ownershipViolations([...PLANTED_ENTITIES, ...misplaced])).toEqual([
      'src/books.queries.ts: a queries file outside a module folder',
      'src/infra/shelves.queries.ts: a queries file outside a module folder',
    ]);
  });

  it('lets a module compose a fragment its owner writes, and name its own tables in its queries files', () => {
    const owner = {
      path: 'src/infra/shelves/shelves.queries.ts',
      text: 'export const shelvesAs = (alias: string) => `shelves ${alias}`;\n',
    };
    const user = {
      path: 'src/books/books.queries.ts',
      text: "import { shelvesAs } from '../infra/shelves/shelves.queries';\nexport const SQL = `SELECT b.id FROM books b JOIN ${shelvesAs('s')} ON s.id = b.shelf_id`;\n",
    };
    expect(ownershipViolations([...PLANTED_ENTITIES, owner, user])).toEqual([]);
  });

  it('fails on a TypeORM call given another module’s entity class, and lets a module use its own', () => {
    expect(Object.fromEntries(entityOwnersOf(PLANTED_ENTITIES))).toEqual({ BookEntity: 'books', ShelfEntity: 'infra/shelves' });
    const planted = {
      path: 'src/books/books.service.ts',
      text: [
        "import { ShelfEntity } from '../infra/shelves/entities/shelf.entity';",
        'export class BooksService {',
        '  async shelved(em: Em, id: string) {',
        "    const shelf = await em.findOne(ShelfEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });",
        '    return em',
        "      .createQueryBuilder(BookEntity, 'b')",
        "      .innerJoin(ShelfEntity, 's', 's.id = b.shelf_id')",
        '      .getMany();',
        '  }',
        '}',
      ].join('\n'),
    };
    // An entity file names other entities for its relations; a type names one without reaching its table.
    const relation = {
      path: 'src/books/entities/loan.entity.ts',
      text: "@ManyToOne(() => ShelfEntity)\nshelf!: ShelfEntity;\nplan!: ShelfEntity['plan'];\nexport class LoanEntity {}\n",
    };
    expect(ownershipViolations([...PLANTED_ENTITIES, planted, relation])).toEqual([
      'src/books/books.service.ts:4: findOne(ShelfEntity), an entity of infra/shelves',
      'src/books/books.service.ts:7: innerJoin(ShelfEntity), an entity of infra/shelves',
    ]);
  });

  it('holds for src/', () => {
    const sources = sourcesUnder('src');
    const { owners } = ownerMapOf(sources);
    // The map comes from the entities: a parse that finds none would pass everything.
    expect(owners.get('projects')).toBe('projects');
    expect(owners.get('idempotency_records')).toBe('idempotency');
    expect(owners.get('mail_messages')).toBe('infra/mail');
    expect(owners.size).toBeGreaterThanOrEqual(50);
    const entityOwners = entityOwnersOf(sources);
    expect(entityOwners.get('ProjectEntity')).toBe('projects');
    expect(entityOwners.get('MailMessageEntity')).toBe('infra/mail');
    expect(ownershipViolations(sources)).toEqual([]);
  });
});
