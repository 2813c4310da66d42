import { Cluster, startCluster } from '../support/cluster';

const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe.each([
  ['PostgreSQL + Redis', true],
  ['PostgreSQL alone', false],
])('waitlist signups over two API processes and two workers (%s)', (_mode, redis) => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ apis: 2, workers: 2, redis });
  });
  afterAll(() => cluster?.close());

  it('gives 500 simultaneous signups spread over both APIs the positions 1..500 and credits every referral', async () => {
    const { projectId, secretKey } = await cluster.createProject('scale');
    const hubs = await Promise.all(
      range(5).map((n) =>
        cluster
          .apiAt(n % 2)
          .as(secretKey)
          .post('/v1/waitlist/signups')
          .send({ email: `hub${n}@x.io` })
          .expect(201),
      ),
    );
    const codes = hubs.map((res) => res.body.data.referral_code as string);
    // Every fifth signup names a hub (20 each, half on each API process).
    const responses = await Promise.all(
      range(495).map((n) =>
        cluster
          .api()
          .as(secretKey)
          .post('/v1/waitlist/signups')
          .send({ email: `spike${n}@x.io`, ...(n % 5 === 0 ? { referrer_code: codes[(n / 5) % 5] } : {}) }),
      ),
    );
    expect(responses.filter((res) => res.status !== 201).map((res) => [res.status, res.body])).toEqual([]);
    const positions = [...hubs, ...responses].map((res) => res.body.data.position as number).sort((a, b) => a - b);
    expect(positions).toEqual(range(500));
    const rows = await cluster.sql<{ position: number }>('SELECT position FROM waitlist_signups WHERE project_id = $1 ORDER BY position', [
      projectId,
    ]);
    expect(rows.map((row) => row.position)).toEqual(range(500));
    const credits = await cluster.sql<{ email: string; referral_count: number }>(
      `SELECT email, referral_count FROM waitlist_signups WHERE project_id = $1 AND email LIKE 'hub%' ORDER BY email`,
      [projectId],
    );
    expect(credits).toEqual(range(5).map((n) => ({ email: `hub${n}@x.io`, referral_count: referralsOf(n - 1) })));
  });
});

/** Signups n = 5, 10, …, 495 name the hub at codes[(n / 5) % 5]: how many name codes[index]. */
function referralsOf(index: number): number {
  return range(495).filter((n) => n % 5 === 0 && (n / 5) % 5 === index).length;
}
