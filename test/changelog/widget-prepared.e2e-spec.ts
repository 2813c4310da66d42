import { Database } from '../../src/infra/database/database.service';
import { seedEntry } from '../support/changelog-seed';
import { TestApp } from '../support/test-app';

/**
 * The widget's list is a named statement (Database.preparedReads): parsed once per pooled
 * connection, so PostgreSQL can keep its plan instead of planning the statement on every request.
 * With a pool of one connection, that connection's prepared statements show it.
 */
describe('The widget list as a prepared statement', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { DATABASE_POOL_SIZE: '1' } });
  });
  afterAll(() => t.close());

  it('is prepared on the connection once and answers the same on every later call', async () => {
    const { project, publishableKey } = await t.seedProject({ plan: 'indie' });
    await seedEntry(t, project.id, { title: 'Prepared' });
    const preparedWidgetStatements = async () => {
      const rows: { name: string; statement: string }[] = await t
        .get(Database)
        .reads.query('SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE $1', ['WITH v AS MATERIALIZED%']);
      return rows.map((row) => row.name);
    };
    expect(await preparedWidgetStatements()).toEqual([]);
    const answers: string[][] = [];
    for (let call = 0; call < 7; call += 1) {
      const res = await t.api.as(publishableKey).get('/v1/changelog/widget/entries').expect(200);
      answers.push(res.body.data.entries.map((entry: { title: string }) => entry.title));
    }
    expect(answers).toEqual(Array.from({ length: 7 }, () => ['Prepared']));
    const names = await preparedWidgetStatements();
    // The embedded database serves every connection from one session: there it stays a plain statement.
    if (!process.env.DATABASE_URL) return expect(names).toEqual([]);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^s_[0-9a-f]{24}$/);
  });
});
