import { CustomDomainEntity } from '../../src/custom-domains/entities/custom-domain.entity';
import { DnsResolver } from '../../src/custom-domains/dns-resolver';
import { ProjectsService } from '../../src/projects/projects.service';
import { type DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';

const TARGET = 'domains.launch.test';

/** DNS answers the tests decide: TXT records by name, CNAMEs by host. */
class FakeDns extends DnsResolver {
  txt = new Map<string, string[][]>();
  cname = new Map<string, string[]>();
  failing = false;
  resolveTxt(name: string): Promise<string[][]> {
    return this.failing
      ? Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }))
      : Promise.resolve(this.txt.get(name) ?? []);
  }
  resolveCname(name: string): Promise<string[]> {
    return this.failing
      ? Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }))
      : Promise.resolve(this.cname.get(name) ?? []);
  }
}

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
    jest.spyOn(resolver, 'resolveCname').mockImplementation((name) => dns.resolveCname(name));
    owner = await builderOwner('domains_owner');
    stranger = await builderOwner('domains_stranger');
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  async function builderOwner(sub: string, plan: 'builder' | 'scale' | 'indie' = 'builder'): Promise<DashboardOwner> {
    const created = await provisionOwner(t, idp, sub);
    await t.get(ProjectsService).setPlan(created.projectId, plan);
    return created;
  }
  const as = (who: DashboardOwner, projectId = who.projectId) => ({
    get: (path: string) => t.api.as(who.token).get(path).set('X-Service-Project', projectId),
    post: (path: string) => t.api.as(who.token).post(path).set('X-Service-Project', projectId),
    delete: (path: string) => t.api.as(who.token).delete(path).set('X-Service-Project', projectId),
  });
  const addDomain = (who: DashboardOwner, hostname: string) => as(who).post('/v1/dashboard/domains').send({ hostname });

  describe('POST /v1/dashboard/domains', () => {
    it('adds a pending hostname, normalized, with the TXT and CNAME records that prove control', async () => {
      const res = await addDomain(owner, '  Changelog.Example.COM. ').expect(201);
      const domain = res.body.data;
      expect(domain).toMatchObject({
        id: expect.stringMatching(/^dom_/),
        hostname: 'changelog.example.com',
        status: 'pending',
        verified_at: null,
        last_checked_at: null,
        last_check_error: null,
      });
      expect(domain.dns_records).toEqual([
        {
          type: 'TXT',
          name: '_launch-service.changelog.example.com',
          value: expect.stringMatching(/^launch-service-verification=[0-9a-f]{32}$/),
        },
        { type: 'CNAME', name: 'changelog.example.com', value: TARGET },
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

    it('refuses a hostname another project registered, and the same one twice, with HOSTNAME_ALREADY_REGISTERED', async () => {
      await addDomain(stranger, 'status.taken.example').expect(201);
      const res = await addDomain(owner, 'STATUS.taken.example').expect(409);
      expect(res.body.error).toMatchObject({ code: 'HOSTNAME_ALREADY_REGISTERED', param: 'hostname' });
      expect((await addDomain(stranger, 'status.taken.example').expect(409)).body.error.code).toBe('HOSTNAME_ALREADY_REGISTERED');
    });

    it('gives one racing project the hostname, and the others HOSTNAME_ALREADY_REGISTERED', async () => {
      const racers = await Promise.all(['race_a', 'race_b', 'race_c'].map((sub) => builderOwner(`domains_${sub}`)));
      const results = await Promise.all(racers.map((who) => addDomain(who, 'race.example.org')));
      expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409]);
      expect(await t.db.manager.countBy(CustomDomainEntity, { hostname: 'race.example.org' })).toBe(1);
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
    it('stays pending while neither record exists, and says what it looked for', async () => {
      const who = await builderOwner('domains_pending');
      const { id } = (await addDomain(who, 'pending.example.net').expect(201)).body.data;
      const res = await as(who).post(`/v1/dashboard/domains/${id}/verify`).expect(200);
      expect(res.body.data).toMatchObject({ status: 'pending', verified_at: null, last_checked_at: expect.any(String) });
      expect(res.body.data.last_check_error).toContain('_launch-service.pending.example.net');
      expect(res.body.data.last_check_error).toContain(TARGET);
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
      expect(res.body.data).toMatchObject({ status: 'verified', verified_at: expect.any(String), last_check_error: null });
    });

    it('verifies with a CNAME to the target, in any case and with the trailing dot', async () => {
      const who = await builderOwner('domains_cname');
      const domain = (await addDomain(who, 'cname.example.net').expect(201)).body.data;
      dns.cname.set('cname.example.net', ['Domains.Launch.Test.']);
      const res = await as(who).post(`/v1/dashboard/domains/${domain.id}/verify`).expect(200);
      expect(res.body.data.status).toBe('verified');
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
    const owner = await provisionOwner(t, idp, 'domains_unconfigured');
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
