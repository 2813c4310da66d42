import { DnsResolver } from '../../src/custom-domains/dns-resolver';
import { DomainRecheck } from '../../src/custom-domains/domain-recheck.service';
import { ProjectsService } from '../../src/projects/projects.service';
import { seedEntry } from '../support/changelog-seed';
import { type DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { FakeDns } from '../support/fake-dns';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Domain {
  id: string;
  hostname: string;
  dns_records: { name: string; value: string }[];
}

describe('the daily re-check of verified custom domains', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  const dns = new FakeDns();

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env({ CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test' }) });
    const resolver = t.get(DnsResolver as never) as DnsResolver;
    jest.spyOn(resolver, 'resolveTxt').mockImplementation((name) => dns.resolveTxt(name));
  });
  // Frozen, so the times the answers carry can be compared exactly.
  beforeEach(() => t.clock.freeze());
  afterEach(() => {
    t.clock.reset();
    dns.failing = false;
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const recheck = () => t.get(DomainRecheck).recheckDue();
  const timesAsked = (domain: Domain) => dns.asked.filter((name) => name === domain.dns_records[0].name).length;
  const dashboard = (who: DashboardOwner) => ({
    get: (path: string) => t.api.as(who.token).get(path).set('X-Service-Project', who.projectId),
    post: (path: string) => t.api.as(who.token).post(path).set('X-Service-Project', who.projectId),
  });
  const served = async (hostname: string) => (await t.api.unchecked().get('/').set('Host', hostname)).status === 200;
  const listed = async (who: DashboardOwner, domain: Domain) =>
    ((await dashboard(who).get('/v1/dashboard/domains').expect(200)).body.data as Record<string, unknown>[]).find(
      (each) => each.id === domain.id,
    );

  /** A project with one entry and a verified hostname whose TXT record is in place. */
  async function verifiedDomain(sub: string, hostname: string): Promise<{ who: DashboardOwner; domain: Domain }> {
    const who = await provisionOwner(t.api, idp, sub);
    await t.get(ProjectsService).setPlan(who.projectId, 'builder');
    await seedEntry(t, who.projectId, { title: 'Served here' });
    const domain = (await dashboard(who).post('/v1/dashboard/domains').send({ hostname }).expect(201)).body.data as Domain;
    dns.txt.set(domain.dns_records[0].name, [[domain.dns_records[0].value]]);
    await dashboard(who).post(`/v1/dashboard/domains/${domain.id}/verify`).expect(200);
    return { who, domain };
  }

  it('looks at each verified hostname once a day, once in the cluster however many workers run it', async () => {
    const { who, domain } = await verifiedDomain('recheck_daily', 'daily.recheck.example');
    const before = timesAsked(domain);
    await recheck();
    expect(timesAsked(domain)).toBe(before); // not due yet

    t.clock.advance(DAY);
    // Three worker processes ticking at once: each hostname is taken by one of them.
    await Promise.all([recheck(), recheck(), recheck()]);
    expect(timesAsked(domain)).toBe(before + 1);
    expect(await listed(who, domain)).toMatchObject({
      status: 'verified',
      last_checked_at: t.clock.now().toISOString(),
      last_check_error: null,
      expires_at: null,
    });
    t.clock.advance(DAY - HOUR);
    await recheck();
    expect(timesAsked(domain)).toBe(before + 1);
  });

  it('changes nothing when the DNS lookup itself fails, and tries again within the hour', async () => {
    const { who, domain } = await verifiedDomain('recheck_timeout', 'timeout.recheck.example');
    const atVerify = await listed(who, domain);
    t.clock.advance(DAY);
    dns.failing = true;
    await recheck();
    await recheck();
    expect(await listed(who, domain)).toMatchObject({
      status: 'verified',
      expires_at: null,
      last_checked_at: atVerify?.last_checked_at,
      last_check_error: 'The DNS lookup of timeout.recheck.example failed (ETIMEOUT); retry in a few minutes.',
    });
    expect(await served(domain.hostname)).toBe(true);

    // Days of failing lookups release nothing: only an answer without the record counts.
    t.clock.advance(8 * DAY);
    await recheck();
    expect(await listed(who, domain)).toMatchObject({ status: 'verified' });
    dns.failing = false;
    t.clock.advance(HOUR);
    const before = timesAsked(domain);
    await recheck();
    expect(timesAsked(domain)).toBe(before + 1);
    expect(await listed(who, domain)).toMatchObject({ status: 'verified', last_check_error: null });
  });

  it('reports a hostname whose TXT record is gone as failing, keeps serving it, and verifies it again when the record is back', async () => {
    const { who, domain } = await verifiedDomain('recheck_failing', 'failing.recheck.example');
    dns.txt.delete(domain.dns_records[0].name);
    t.clock.advance(DAY);
    const failingSince = t.clock.now();
    await recheck();
    expect(await listed(who, domain)).toMatchObject({
      status: 'failing',
      last_checked_at: failingSince.toISOString(),
      last_check_error: `No TXT record ${domain.dns_records[0].name} with the value ${domain.dns_records[0].value}.`,
      expires_at: new Date(failingSince.getTime() + 7 * DAY).toISOString(),
    });
    expect(await served(domain.hostname)).toBe(true);

    // Failing hostnames are looked at hourly; the grace period counts from the first miss.
    t.clock.advance(HOUR);
    await recheck();
    expect(await listed(who, domain)).toMatchObject({ expires_at: new Date(failingSince.getTime() + 7 * DAY).toISOString() });

    // The owner puts the record back and asks: verified at once.
    dns.txt.set(domain.dns_records[0].name, [[domain.dns_records[0].value]]);
    const res = await dashboard(who).post(`/v1/dashboard/domains/${domain.id}/verify`).expect(200);
    expect(res.body.data).toMatchObject({ status: 'verified', last_check_error: null, expires_at: null });
  });

  it('stops serving a hostname whose TXT record stayed gone for 7 days; it becomes a pending claim another project may win', async () => {
    const { who, domain } = await verifiedDomain('recheck_release', 'released.recheck.example');
    dns.txt.delete(domain.dns_records[0].name);
    t.clock.advance(DAY);
    await recheck();
    t.clock.advance(7 * DAY - HOUR);
    await recheck();
    expect(await listed(who, domain)).toMatchObject({ status: 'failing' });
    expect(await served(domain.hostname)).toBe(true);

    t.clock.advance(HOUR);
    await recheck();
    const released = await listed(who, domain);
    expect(released).toMatchObject({
      status: 'pending',
      verified_at: null,
      expires_at: new Date(t.clock.now().getTime() + 7 * DAY).toISOString(),
      last_check_error: expect.stringContaining('stopped serving'),
    });
    expect(await served(domain.hostname)).toBe(false);

    // The name is free: another project that proves control now holds it.
    const { domain: theirs } = await verifiedDomain('recheck_new_owner', domain.hostname);
    expect(theirs.hostname).toBe(domain.hostname);
    expect(await served(domain.hostname)).toBe(true);
    const again = await dashboard(who).post(`/v1/dashboard/domains/${domain.id}/verify`).expect(409);
    expect(again.body.error.code).toBe('HOSTNAME_ALREADY_REGISTERED');
  });
});
