import { LISTENER_APPLICATION_NAME } from '../../src/infra/database/change-notifications.service';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { KNOWN_VALUE_TTL_MS } from '../../src/common/cache/lookup-cache';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { AdjustableClock } from '../../src/common/clock/clock';
import { SigningSecretsService } from '../../src/notifications/identity/signing-secrets.service';
import { ProjectsService } from '../../src/projects/projects.service';
import { ApiClient } from '../support/api-client';
import { runCli } from '../support/server-process';
import { startPeerApp } from '../support/peer-app';
import { TestApp } from '../support/test-app';
import { withAdminClient } from '../support/test-database';

/**
 * Two API processes on one database: A (the test app) and B (a second app on A's database). With
 * PostgreSQL, a change made through A (or the CLI, a third process) reaches B's key cache through
 * LISTEN/NOTIFY before B's next request. The embedded database serves one process only, so there B
 * sees the change once its cache entry expires (the documented fallback).
 */
const realPostgres = Boolean(process.env.DATABASE_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('Cached changes across processes (API keys, signing secrets)', () => {
  let a: TestApp;
  let b: NestExpressApplication;
  let bApi: ApiClient;
  const bClock = new AdjustableClock();

  beforeAll(async () => {
    a = await TestApp.start();
    // B opens the signing secrets A seals (the peer shares A's encryption key).
    b = await startPeerApp(a, bClock);
    bApi = new ApiClient(b.getHttpServer());
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** B's cache is warm and, on PostgreSQL, its listener is in place. */
  async function warm(key: string): Promise<void> {
    await bApi.as(key).get('/v1/setup-check').expect(200);
    await until(() => b.get(ApiKeysService).invalidationListening, "B's change listener");
    // The listener clears the cache once LISTEN is in place, and the key's own creation may still be
    // on its way to B (a lookup it overtakes stores nothing): ask until B holds the key.
    await until(async () => {
      await bApi.as(key).get('/v1/setup-check').expect(200);
      return b.get(ApiKeysService).cachedKey(key) !== undefined;
    }, 'B to cache the key');
    expect(b.get(ApiKeysService).cachedKey(key)).toMatchObject({ revoked: false });
  }

  /**
   * A change's answer comes once every listening process has applied it, so B holds no copy of the
   * key the moment A's change returns. On the embedded database, B sees the change when its cache
   * entry expires.
   */
  function changeReachesB(key: string): void {
    if (!realPostgres) return bClock.advance(KNOWN_VALUE_TTL_MS + 1);
    expect(b.get(ApiKeysService).cachedKey(key)).toBeUndefined();
  }

  it('refuses a key revoked through another process on the very next request', async () => {
    const project = await a.seedProject({ plan: 'indie' });
    await warm(project.secretKey);
    await a.get(ApiKeysService).revokeKey(project.secretKey);
    changeReachesB(project.secretKey);
    const res = await bApi.as(project.secretKey).get('/v1/setup-check').expect(401);
    expect(res.body).toMatchObject({ data: null, error: { code: 'REVOKED_API_KEY', param: 'Authorization' } });
  });

  it('accepts at once a key created after another process cached it as unknown', async () => {
    const project = await a.seedProject();
    const legacy = `sk_live_${randomBytes(12).toString('hex')}`;
    await warm(project.secretKey);
    expect((await bApi.as(legacy).get('/v1/setup-check').expect(401)).body.error.code).toBe('INVALID_API_KEY');
    expect(b.get(ApiKeysService).cachedKey(legacy)).toBeNull();
    await a.db.transaction((em) => a.get(ApiKeysService).importKey(em, project.project.id, legacy));
    changeReachesB(legacy);
    const res = await bApi.as(legacy).get('/v1/setup-check').expect(200);
    expect(res.body.data.project_id).toBe(project.project.id);
  });

  (realPostgres ? it : it.skip)(
    'refuses a key revoked by the operator CLI (a third process) on the next request',
    async () => {
      const project = await a.seedProject();
      await warm(project.secretKey);
      const revoked = await runCli({ DATABASE_URL: a.config.databaseUrl! }, 'key:revoke', '--key', project.secretKey);
      expect(revoked).toEqual({ id: expect.stringMatching(/^key_/), revoked: true });
      // No waiting: the CLI has exited, and the notification went out at its commit.
      const res = await bApi.as(project.secretKey).get('/v1/setup-check').expect(401);
      expect(res.body.error.code).toBe('REVOKED_API_KEY');
    },
    180_000,
  ); // may wait for the shared build of the CLI

  (realPostgres ? it : it.skip)('reconnects a dropped listener and then sees revocations at once again', async () => {
    const project = await a.seedProject();
    await warm(project.secretKey);
    const database = new URL(a.config.databaseUrl!).pathname.slice(1);
    const terminated = await withAdminClient(process.env.DATABASE_URL!, (client) =>
      client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [
        database,
        LISTENER_APPLICATION_NAME,
      ]),
    );
    expect(terminated.rowCount).toBeGreaterThanOrEqual(1);
    await until(() => !b.get(ApiKeysService).invalidationListening, 'the drop to be noticed');
    // Whatever was cached may have missed a change: the drop cleared it.
    expect(b.get(ApiKeysService).cachedKey(project.secretKey)).toBeUndefined();
    await warm(project.secretKey);
    await a.get(ApiKeysService).revokeKey(project.secretKey);
    changeReachesB(project.secretKey);
    expect((await bApi.as(project.secretKey).get('/v1/setup-check').expect(401)).body.error.code).toBe('REVOKED_API_KEY');
  });

  it('shows a plan change made through another process on the next request', async () => {
    const project = await a.seedProject({ plan: 'free' });
    await warm(project.secretKey);
    await a.get(ProjectsService).setPlan(project.project.id, 'builder');
    changeReachesB(project.secretKey);
    expect((await bApi.as(project.secretKey).get('/v1/setup-check').expect(200)).body.data.plan).toBe('builder');
  });

  (realPostgres ? it : it.skip)("drops only the changed project's keys: other tenants stay cached", async () => {
    const changed = await a.seedProject({ plan: 'free' });
    const bystander = await a.seedProject({ plan: 'free' });
    await warm(changed.secretKey);
    await warm(bystander.secretKey);
    const legacy = `sk_live_${randomBytes(12).toString('hex')}`;
    await bApi.as(legacy).get('/v1/setup-check').expect(401);
    await a.get(ProjectsService).setPlan(changed.project.id, 'indie');
    await a.db.transaction((em) => a.get(ApiKeysService).importKey(em, changed.project.id, legacy));
    expect(b.get(ApiKeysService).cachedKey(changed.secretKey)).toBeUndefined();
    expect(b.get(ApiKeysService).cachedKey(bystander.secretKey)).toMatchObject({ revoked: false, project: { id: bystander.project.id } });
  });

  it('reads a signing secret created or rotated through another process at once', async () => {
    const project = await a.seedProject();
    await warm(project.secretKey);
    const id = project.project.id;
    const readOnB = () => b.get(SigningSecretsService).readSecrets(id);
    /** B holds the secret A made: at once on PostgreSQL, at the entry's expiry on the embedded database. */
    const secretReachesB = async (secret: string) => {
      if (!realPostgres) bClock.advance(KNOWN_VALUE_TTL_MS + 1);
      expect((await readOnB()).current).toBe(secret);
    };
    // B has cached "no secret yet".
    expect(await readOnB()).toEqual({ current: null, previous: null });
    const created = await a.get(SigningSecretsService).createSecret(project.project);
    await secretReachesB(created.signing_secret);
    const rotated = await a.get(SigningSecretsService).rotateSecret(project.project);
    await secretReachesB(rotated.signing_secret);
    expect((await readOnB()).previous).toMatchObject({ secret: created.signing_secret });
  });
});
