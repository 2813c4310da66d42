import { IsNull, Not } from 'typeorm';
import { ClaimExpiry } from '../../src/custom-domains/claim-expiry.service';
import { CustomDomainEntity } from '../../src/custom-domains/entities/custom-domain.entity';
import { DnsResolver } from '../../src/custom-domains/dns-resolver';
import { ProjectsService } from '../../src/projects/projects.service';
import { seedEntry } from '../support/changelog-seed';
import { type DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { FakeDns } from '../support/fake-dns';
import { TestApp } from '../support/test-app';

const TARGET = 'domains.launch.test';

describe('Custom domains', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let owner: DashboardOwner;
  let stranger: DashboardOwner;
  const dns = new FakeDns();

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env({ CUSTOM_DOMAIN_CNAME_TARGET: TARGET, DASHBOARD_ORIGINS: 'https://app.launch.test' }) });
    const resolver = t.get(DnsResolver as never) as DnsResolver;
    jest.spyOn(resolver, 'resolveTxt').mockImplementation((name) => dns.resolveTxt(name));
    owner = await builderOwner('domains_owner');
    stranger = await builderOwner('domains_stranger');
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  async function builderOwner(sub: string, plan: 'builder' | 'scale' | 'indie' = 'builder'): Promise<DashboardOwner> {
    const created = await provisionOwner(t.api, idp, sub);
    await t.get(ProjectsService).setPlan(created.projectId, plan);
    return created;
  }
  const as = (who: DashboardOwner, projectId = who.projectId) => ({
    get: (path: string) => t.api.as(who.token).get(path).set('X-Service-Project', projectId),
    post: (path: string) => t.api.as(who.token).post(path).set('X-Service-Project', projectId),
    delete: (path: string) => t.api.as(who.token).delete(path).set('X-Service-Project', projectId),
  });
  const addDomain = (who: DashboardOwner, hostname: string) => as(who).post('/v1/dashboard/domains').send({ hostname });
  /** Publishes the claim's TXT record, then asks for the check. */
  const verifyWithTxt = (who: DashboardOwner, domain: { id: string; dns_records: { name: string; value: string }[] }) => {
    dns.txt.set(domain.dns_records[0].name, [[domain.dns_records[0].value]]);
    return as(who).post(`/v1/dashboard/domains/${domain.id}/verify`);
  };

  describe('POST /v1/dashboard/domains', () => {
    it('adds a pending hostname, normalized, with the TXT record that proves control and the CNAME that routes it', async () => {
      const res = await addDomain(owner, '  Changelog.Example.COM. ').expect(201);
      const domain = res.body.data;
      expect(domain).toMatchObject({
        id: expect.stringMatching(/^dom_/),
        hostname: 'changelog.example.com',
        status: 'pending',
        verified_at: null,
        expires_at: expect.any(String),
        last_checked_at: null,
        last_check_error: null,
      });
      expect(domain.dns_records).toEqual([
        {
          type: 'TXT',
          purpose: 'verification',
          name: '_launch-service.changelog.example.com',
          value: expect.stringMatching(/^launch-service-verification=[0-9a-f]{32}$/),
        },
        { type: 'CNAME', purpose: 'routing', name: 'changelog.example.com', value: TARGET },
      ]);
    });

    it.each([
      ['192.0.2.10', /IP address/],
      ['localhost', /two labels/],
      ['https://docs.example.com/x', /bare hostname/],
      ['bad_name.example.com', /letters, digits/],
      ['launch.test', /own/],
      ['news.launch.test', /own/],
      ['x.domains.launch.test', /own/],
      ['', /empty/],
    ])('refuses %s with VALIDATION_ERROR on hostname', async (hostname, reason) => {
      const res = await addDomain(owner, hostname).expect(400);
      expect(res.body).toMatchObject({
        data: null,
        error: { code: 'VALIDATION_ERROR', param: 'hostname', message: expect.stringMatching(reason) },
      });
    });

    it('lets a pending claim block no one, and refuses a hostname another project verified with HOSTNAME_ALREADY_REGISTERED', async () => {
      const first = await builderOwner('domains_claim_first');
      const second = await builderOwner('domains_claim_second');
      const claimed = (await addDomain(first, 'status.taken.example').expect(201)).body.data;
      // Pending: the second project may claim it too, with a token of its own.
      const rival = (await addDomain(second, 'STATUS.taken.example').expect(201)).body.data;
      expect(rival.dns_records[0].value).not.toBe(claimed.dns_records[0].value);
      await verifyWithTxt(first, claimed).expect(200);
      const res = await addDomain(stranger, 'status.taken.example').expect(409);
      expect(res.body.error).toMatchObject({ code: 'HOSTNAME_ALREADY_REGISTERED', param: 'hostname' });
      expect(res.body.error.message).toBe('status.taken.example is verified by another project.');
    });

    it('refuses a hostname the project already has with HOSTNAME_ALREADY_REGISTERED', async () => {
      const who = await builderOwner('domains_twice');
      await addDomain(who, 'twice.example.org').expect(201);
      const res = await addDomain(who, 'Twice.Example.org').expect(409);
      expect(res.body.error).toMatchObject({ code: 'HOSTNAME_ALREADY_REGISTERED', param: 'hostname' });
      expect(res.body.error.message).toBe("twice.example.org is already one of this project's hostnames.");
      expect(await t.db.manager.countBy(CustomDomainEntity, { hostname: 'twice.example.org' })).toBe(1);
    });

    it('says when the pending claim expires: 7 days after it was added', async () => {
      const who = await builderOwner('domains_expiry_date');
      const domain = (await addDomain(who, 'dated.example.org').expect(201)).body.data;
      expect(new Date(domain.expires_at).getTime() - new Date(domain.created_at).getTime()).toBe(7 * 24 * 3_600_000);
    });

    it('stops at the plan limit with CUSTOM_DOMAIN_LIMIT_REACHED, also under concurrency', async () => {
      const builder = await builderOwner('domains_limit');
      const results = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => addDomain(builder, `n${n}.limit.example`)));
      expect(results.filter((res) => res.status === 201)).toHaveLength(5);
      const refused = results.filter((res) => res.status === 403);
      expect(refused).toHaveLength(2);
      expect(refused[0].body.error).toMatchObject({ code: 'CUSTOM_DOMAIN_LIMIT_REACHED', param: 'hostname' });
      expect(refused[0].body.error.message).toContain('5 custom hostnames');
    });

    it('answers PLAN_UPGRADE_REQUIRED below Builder', async () => {
      const indie = await builderOwner('domains_indie', 'indie');
      const res = await addDomain(indie, 'indie.example.com').expect(403);
      expect(res.body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      const res = await as(owner, stranger.projectId).post('/v1/dashboard/domains').send({ hostname: 'x.example.com' }).expect(404);
      expect(res.body.error).toMatchObject({ code: 'PROJECT_NOT_FOUND', param: 'X-Service-Project' });
    });
  });

  describe('GET /v1/dashboard/domains', () => {
    it("lists the project's hostnames only, oldest first", async () => {
      const who = await builderOwner('domains_list');
      await addDomain(who, 'a.list.example').expect(201);
      await addDomain(who, 'b.list.example').expect(201);
      const res = await as(who).get('/v1/dashboard/domains').expect(200);
      expect(res.body.data.map((domain: { hostname: string }) => domain.hostname)).toEqual(['a.list.example', 'b.list.example']);
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      expect((await as(owner, stranger.projectId).get('/v1/dashboard/domains').expect(404)).body.error.code).toBe('PROJECT_NOT_FOUND');
    });
  });

  describe('POST /v1/dashboard/domains/{id}/verify', () => {
    it('stays pending while the TXT record is missing, and says what it looked for', async () => {
      const who = await builderOwner('domains_pending');
      const { id } = (await addDomain(who, 'pending.example.net').expect(201)).body.data;
      const res = await as(who).post(`/v1/dashboard/domains/${id}/verify`).expect(200);
      expect(res.body.data).toMatchObject({ status: 'pending', verified_at: null, last_checked_at: expect.any(String) });
      expect(res.body.data.last_check_error).toMatch(
        /^No TXT record _launch-service\.pending\.example\.net with the value launch-service-verification=[0-9a-f]{32}\.$/,
      );
      dns.failing = true;
      const failed = await as(who).post(`/v1/dashboard/domains/${id}/verify`).expect(200);
      dns.failing = false;
      expect(failed.body.data.last_check_error).toMatch(/DNS lookup .* failed \(ETIMEOUT\)/);
    });

    it('verifies with the TXT record', async () => {
      const who = await builderOwner('domains_txt');
      const domain = (await addDomain(who, 'txt.example.net').expect(201)).body.data;
      const txt = domain.dns_records[0];
      dns.txt.set(txt.name, [['v=spf1 -all'], [txt.value.slice(0, 10), txt.value.slice(10)]]);
      const res = await as(who).post(`/v1/dashboard/domains/${domain.id}/verify`).expect(200);
      expect(res.body.data).toMatchObject({
        status: 'verified',
        verified_at: expect.any(String),
        last_check_error: null,
        expires_at: null,
      });
    });

    it("does not verify with a CNAME to the shared target, nor with another claim's token", async () => {
      const who = await builderOwner('domains_cname');
      const rival = await builderOwner('domains_cname_rival');
      const domain = (await addDomain(who, 'cname.example.net').expect(201)).body.data;
      const theirs = (await addDomain(rival, 'cname.example.net').expect(201)).body.data;
      dns.txt.set(theirs.dns_records[0].name, [[theirs.dns_records[0].value]]);
      dns.asked = [];
      const res = await as(who).post(`/v1/dashboard/domains/${domain.id}/verify`).expect(200);
      // Only the TXT record is asked for: a CNAME to the shared target, which anyone can point, is not.
      expect(dns.asked).toEqual(['_launch-service.cname.example.net']);
      expect(res.body.data).toMatchObject({ status: 'pending', verified_at: null });
      expect(res.body.data.last_check_error).toContain(domain.dns_records[0].value);
      expect(await t.db.manager.countBy(CustomDomainEntity, { hostname: 'cname.example.net', verifiedAt: Not(IsNull()) })).toBe(0);
    });

    it('gives the hostname to the first project that verifies; the others get HOSTNAME_ALREADY_REGISTERED, also when racing', async () => {
      const racers = await Promise.all(['race_a', 'race_b', 'race_c'].map((sub) => builderOwner(`domains_${sub}`)));
      const claims = await Promise.all(racers.map(async (who) => (await addDomain(who, 'race.example.org').expect(201)).body.data));
      // The owner of the name published every token, and every check passes its first reads
      // before any records its result: only the database can pick the winner.
      dns.txt.set(
        '_launch-service.race.example.org',
        claims.map((claim) => [claim.dns_records[0].value]),
      );
      dns.holdFor = racers.length;
      const results = await Promise.all(racers.map((who, index) => as(who).post(`/v1/dashboard/domains/${claims[index].id}/verify`)));
      expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409]);
      const winner = results.find((res) => res.status === 200)!;
      expect(winner.body.data.status).toBe('verified');
      for (const loser of results.filter((res) => res.status === 409)) {
        expect(loser.body.error).toMatchObject({ code: 'HOSTNAME_ALREADY_REGISTERED', param: 'id' });
        expect(loser.body.error.message).toBe('race.example.org is verified by another project.');
      }
      expect(await t.db.manager.countBy(CustomDomainEntity, { hostname: 'race.example.org', verifiedAt: Not(IsNull()) })).toBe(1);
      // The database is what decides: a second verified row for the name is refused outright.
      const loserIndex = results.findIndex((res) => res.status === 409);
      await expect(
        t.db.manager.query('UPDATE custom_domains SET verified_at = now() WHERE id = $1', [claims[loserIndex].id]),
      ).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'uq_custom_domains_verified_hostname' } });
      // The losing claims stay pending (until they lapse) and still cannot verify.
      const again = await as(racers[loserIndex]).post(`/v1/dashboard/domains/${claims[loserIndex].id}/verify`).expect(409);
      expect(again.body.error.code).toBe('HOSTNAME_ALREADY_REGISTERED');
      const listed = await as(racers[loserIndex]).get('/v1/dashboard/domains').expect(200);
      expect(listed.body.data.map((domain: { status: string }) => domain.status)).toEqual(['pending']);
    });

    describe('after 7 days without verification', () => {
      afterEach(() => t.clock.reset());

      it('the claim neither verifies nor counts nor blocks, and the daily sweep deletes it', async () => {
        const who = await builderOwner('domains_expired');
        const domain = (await addDomain(who, 'late.example.org').expect(201)).body.data;
        dns.txt.set(domain.dns_records[0].name, [[domain.dns_records[0].value]]);
        t.clock.advance(7 * 24 * 3_600_000 + 1_000);
        const res = await as(who).post(`/v1/dashboard/domains/${domain.id}/verify`).expect(404);
        expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
        expect(res.body.error.message).toBe('The claim on late.example.org expired 7 days after it was added; add the hostname again.');
        expect((await as(who).get('/v1/dashboard/domains').expect(200)).body.data).toEqual([]);
        // It leaves the plan's count; the project may claim the name again, with a new token.
        for (const n of [1, 2, 3, 4]) await addDomain(who, `n${n}.late.example.org`).expect(201);
        const again = (await addDomain(who, 'late.example.org').expect(201)).body.data;
        expect(again.dns_records[0].value).not.toBe(domain.dns_records[0].value);
        expect(await t.db.manager.countBy(CustomDomainEntity, { id: domain.id })).toBe(0);

        const stale = (await addDomain(stranger, 'stale.example.org').expect(201)).body.data;
        t.clock.advance(7 * 24 * 3_600_000 + 1_000);
        expect(await t.get(ClaimExpiry).purgeExpired()).toBeGreaterThanOrEqual(1);
        expect(await t.db.manager.countBy(CustomDomainEntity, { id: stale.id })).toBe(0);
        expect(await t.db.manager.countBy(CustomDomainEntity, { id: again.id })).toBe(0);
      });
    });

    it("answers NOT_FOUND for another project's domain and PROJECT_NOT_FOUND for another account's project", async () => {
      const theirs = (await addDomain(stranger, 'theirs.example.net').expect(201)).body.data;
      const res = await as(owner).post(`/v1/dashboard/domains/${theirs.id}/verify`).expect(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
      expect((await as(owner).post('/v1/dashboard/domains/not-an-id/verify').expect(404)).body.error.code).toBe('NOT_FOUND');
      const foreign = await as(owner, stranger.projectId).post(`/v1/dashboard/domains/${theirs.id}/verify`).expect(404);
      expect(foreign.body.error.code).toBe('PROJECT_NOT_FOUND');
    });
  });

  describe('DELETE /v1/dashboard/domains/{id}', () => {
    it('removes the hostname, which another project may then add', async () => {
      const who = await builderOwner('domains_delete');
      const { id } = (await addDomain(who, 'moving.example.net').expect(201)).body.data;
      const res = await as(who).delete(`/v1/dashboard/domains/${id}`).expect(200);
      expect(res.body.data).toEqual({ id, deleted: true });
      expect((await as(who).delete(`/v1/dashboard/domains/${id}`).expect(404)).body.error.code).toBe('NOT_FOUND');
      await addDomain(stranger, 'moving.example.net').expect(201);
    });

    it("answers NOT_FOUND for another project's domain and PROJECT_NOT_FOUND for another account's project", async () => {
      const theirs = (await addDomain(stranger, 'keep.example.net').expect(201)).body.data;
      expect((await as(owner).delete(`/v1/dashboard/domains/${theirs.id}`).expect(404)).body.error.code).toBe('NOT_FOUND');
      expect((await as(owner, stranger.projectId).delete(`/v1/dashboard/domains/${theirs.id}`).expect(404)).body.error.code).toBe(
        'PROJECT_NOT_FOUND',
      );
      expect(await t.db.manager.countBy(CustomDomainEntity, { id: theirs.id })).toBe(1);
    });
  });

  describe('a verified hostname', () => {
    it('serves the hosted page from the moment it verifies until it is removed', async () => {
      const who = await builderOwner('domains_serving');
      await seedEntry(t, who.projectId, { title: 'Dark mode arrives' });
      const domain = (await addDomain(who, 'news.serving.example').expect(201)).body.data;
      const host = (path: string) => t.api.unchecked().get(path).set('Host', 'news.serving.example');
      // Pending: nothing is served for it, and it keeps every other route.
      expect((await host('/')).status).toBe(404);
      expect((await host('/v1/_health')).status).toBe(200);

      await verifyWithTxt(who, domain).expect(200);
      expect((await host('/').expect(200)).text).toContain('Dark mode arrives');
      expect((await host('/v1/_health')).status).toBe(404);

      await as(who).delete(`/v1/dashboard/domains/${domain.id}`).expect(200);
      expect((await host('/')).status).toBe(404);
      expect((await host('/v1/_health')).status).toBe(200);
    });
  });

  describe('a verified hostname whose project changes its slug', () => {
    it('serves the pages under the new slug at once, and nothing under the old one', async () => {
      const who = await builderOwner('domains_renamed');
      await seedEntry(t, who.projectId, { title: 'Renamed but here' });
      const domain = (await addDomain(who, 'news.renamed.example').expect(201)).body.data;
      await verifyWithTxt(who, domain).expect(200);
      const host = (path: string) => t.api.unchecked().get(path).set('Host', 'news.renamed.example');
      expect((await host('/').expect(200)).text).toContain('Renamed but here');
      const { slug: oldSlug } = (await t.api.as(who.token).get(`/v1/dashboard/projects/${who.projectId}`).expect(200)).body.data;

      await t.api.as(who.token).patch(`/v1/dashboard/projects/${who.projectId}`).send({ slug: 'renamed-here' }).expect(200);
      expect((await host('/')).status).toBe(200);
      expect((await host('/renamed-here')).status).toBe(200);
      expect((await host(`/w/${oldSlug}`)).status).toBe(404);
    });
  });

  describe('CORS', () => {
    it('answers the dashboard origin on domain routes', async () => {
      const preflight = await t.api
        .options('/v1/dashboard/domains/dom_01JD3Z4Q9X8V7T6S5R4Q3P2N1M/verify')
        .set('Origin', 'https://app.launch.test')
        .set('Access-Control-Request-Method', 'POST');
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.launch.test');
    });
  });
});

describe('Custom domains without configuration', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env() });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('answers CUSTOM_DOMAIN_NOT_CONFIGURED on every domain route', async () => {
    const owner = await provisionOwner(t.api, idp, 'domains_unconfigured');
    await t.get(ProjectsService).setPlan(owner.projectId, 'builder');
    const api = t.api.as(owner.token);
    const id = 'dom_01JD3Z4Q9X8V7T6S5R4Q3P2N1M';
    const results = [
      await api.post('/v1/dashboard/domains').set('X-Service-Project', owner.projectId).send({ hostname: 'a.example.com' }),
      await api.get('/v1/dashboard/domains').set('X-Service-Project', owner.projectId),
      await api.post(`/v1/dashboard/domains/${id}/verify`).set('X-Service-Project', owner.projectId),
      await api.delete(`/v1/dashboard/domains/${id}`).set('X-Service-Project', owner.projectId),
    ];
    for (const res of results) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ data: null, error: { code: 'CUSTOM_DOMAIN_NOT_CONFIGURED' } });
      expect(res.body.error.remediation).toContain('CUSTOM_DOMAIN_CNAME_TARGET');
    }
  });
});
