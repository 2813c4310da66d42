import type { INestApplicationContext } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { ProvisioningService } from '../../src/auth/provisioning.service';
import { createContext, createHttpApp } from '../../src/bootstrap';
import { runCommand } from '../../src/cli/cli-commands';
import { AdjustableClock } from '../../src/common/clock/clock';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { loadConfig, withDatabaseUrl } from '../../src/config/app-config';
import { Database } from '../../src/infra/database/database.service';
import { RevenueConnectionEntity } from '../../src/revenue/entities/revenue-connection.entity';
import { signaturePart } from '../../src/webhooks/delivery/signature';
import { ApiClient } from '../support/api-client';
import { userHashOf } from '../support/notification-seed';
import { type TestDatabase, createTestDatabase } from '../support/test-database';
import { deleteRedisKeysAtFileEnd } from '../support/redis-keys';
import { Receiver } from '../webhooks/delivery-support';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const keyC = randomBytes(32);

interface Seeded {
  secretKey: string;
  publishableKey: string;
  signingSecret: string;
  endpointId: string;
  /** The create answer as sent: a replay with its Idempotency-Key must return it byte for byte. */
  endpointAnswer: string;
  webhookSecret: string;
}

describe('ENCRYPTION_KEY: the fingerprint checked at start, and encryption:reseal', () => {
  const prefix = `t_${randomBytes(6).toString('hex')}`;
  let receiver: Receiver;
  let db: TestDatabase;
  const opened: INestApplicationContext[] = [];

  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await closeAll();
    await db.drop();
  });

  /** Stops every process of the deployment started so far. */
  async function closeAll(): Promise<void> {
    for (const app of opened.splice(0)) await app.close();
  }

  function environment(key: Buffer, extra: Record<string, string> = {}): Record<string, string | undefined> {
    return {
      LOG_LEVEL: 'silent',
      WORKERS: 'off',
      REDIS_URL: process.env.REDIS_URL,
      QUEUE_PREFIX: prefix,
      PUBLIC_BASE_URL: 'https://launch.test',
      WEBHOOK_ALLOW_INSECURE_URLS: 'true',
      ENCRYPTION_KEY: key.toString('base64'),
      ...extra,
    };
  }

  /** A server process of this deployment starting with `key`. */
  async function start(key: Buffer): Promise<NestExpressApplication> {
    deleteRedisKeysAtFileEnd(process.env.REDIS_URL, prefix);
    const app = await createHttpApp(withDatabaseUrl(loadConfig(environment(key)), db.url), { clock: new AdjustableClock() });
    opened.push(app);
    return app;
  }

  async function refusal(key: Buffer): Promise<string> {
    const outcome = await start(key).then(
      () => null,
      (error: Error) => error,
    );
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).toMatchObject({ name: 'EncryptionKeyRefused', setting: 'ENCRYPTION_KEY' });
    return (outcome as Error).message;
  }

  /** `npm run cli -- <argv>` with ENCRYPTION_KEY=current, ENCRYPTION_KEY_PREVIOUS=previous. */
  async function cli(
    current: Buffer,
    previous: Buffer | null,
    ...argv: string[]
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const extra: Record<string, string> = previous ? { ENCRYPTION_KEY_PREVIOUS: previous.toString('base64') } : {};
    const context = await createContext(withDatabaseUrl(loadConfig(environment(current, extra), { cli: true }), db.url), {
      checkEncryptionKey: false,
    });
    let stdout = '';
    let stderr = '';
    try {
      const code = await runCommand(context, argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
      return { code, stdout, stderr };
    } finally {
      await context.close();
    }
  }

  /** A project with a signing secret and a webhook endpoint whose secret was rotated: 4 sealed values. */
  async function seedSecrets(app: NestExpressApplication): Promise<Seeded> {
    const created = await app.get(ProvisioningService).createProjectWithKeys({ name: 'Sealed', plan: 'indie' });
    const api = new ApiClient(app.getHttpServer()).as(created.secretKey);
    const signing = await api.post('/v1/notifications/signing-secret').expect(201);
    // With Idempotency-Key: the answer kept for replays shows the secret, so it is sealed too.
    const endpoint = await api
      .post('/v1/webhooks')
      .set('Idempotency-Key', 'sealed-endpoint')
      .send({ url: receiver.url, events: ['*'] })
      .expect(201);
    const rotated = await api.post(`/v1/webhooks/${endpoint.body.data.id}/rotate-secret`).expect(200);
    return {
      secretKey: created.secretKey,
      publishableKey: created.publishableKey,
      signingSecret: signing.body.data.signing_secret,
      endpointId: endpoint.body.data.id,
      endpointAnswer: endpoint.text,
      webhookSecret: rotated.body.data.signing_secret,
    };
  }

  /** The stored values open on `app`: a bell call checked with user_hash, and a signed test event. */
  async function expectSecretsOpen(app: NestExpressApplication, seeded: Seeded): Promise<void> {
    const api = new ApiClient(app.getHttpServer());
    await api
      .as(seeded.publishableKey)
      .get('/v1/notifications/unread/count?user_id=ada')
      .set('X-Service-User-Hash', userHashOf('ada', seeded.signingSecret))
      .expect(200);
    receiver.reset();
    const test = await api.as(seeded.secretKey).post(`/v1/webhooks/${seeded.endpointId}/test`).expect(200);
    expect(test.body.data).toMatchObject({ delivered: true, response_status: 200 });
    const [request] = receiver.requests;
    const timestamp = Number(/t=(\d+)/.exec(String(request.headers['service-signature']))![1]);
    expect(request.headers['service-signature']).toContain(`v1=${signaturePart(seeded.webhookSecret, timestamp, request.rawBody)}`);
    const replay = await api
      .as(seeded.secretKey)
      .post('/v1/webhooks')
      .set('Idempotency-Key', 'sealed-endpoint')
      .send({ url: receiver.url, events: ['*'] })
      .expect(201);
    expect(replay.text).toBe(seeded.endpointAnswer);
  }

  async function storedFingerprints(): Promise<Array<{ setting: string; fingerprint: string }>> {
    const context = await createContext(withDatabaseUrl(loadConfig(environment(keyA), { cli: true }), db.url), {
      checkEncryptionKey: false,
    });
    try {
      return await context.get(Database).manager.query('SELECT setting, fingerprint FROM encryption_key_fingerprints');
    } finally {
      await context.close();
    }
  }

  describe('at start', () => {
    it('records the first key; a later start with another key refuses with one line naming ENCRYPTION_KEY; the same key starts', async () => {
      await start(keyA);
      await closeAll();
      const stored = await storedFingerprints();
      expect(stored).toEqual([{ setting: 'ENCRYPTION_KEY', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      // Nothing of the key itself is stored.
      expect(stored[0].fingerprint).not.toContain(keyA.toString('hex').slice(0, 16));

      const message = await refusal(keyB);
      expect(message).toMatch(/^ENCRYPTION_KEY is not the key this database's secrets are sealed with/);
      expect(message).toContain('encryption:reseal');
      expect(message).toContain(stored[0].fingerprint.slice(0, 12));
      expect(message).not.toContain('\n');
      expect(message).not.toContain(keyB.toString('base64'));

      await start(keyA);
    });

    it('of two processes starting at once on an empty database with different keys, exactly one starts', async () => {
      const outcomes = await Promise.allSettled([start(keyA), start(keyB)]);
      const started = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect({ started: started.length, refused: refused.length }).toEqual({ started: 1, refused: 1 });
      expect(refused[0].reason).toMatchObject({ name: 'EncryptionKeyRefused' });
      expect(await storedFingerprints()).toHaveLength(1);
    });

    it('a database holding secrets from before fingerprints refuses a key that cannot open them, instead of recording it', async () => {
      const seeded = await seedSecrets(await start(keyA));
      await closeAll();
      // As a database migrated from a version without fingerprints looks.
      const context = await createContext(withDatabaseUrl(loadConfig(environment(keyA), { cli: true }), db.url), {
        checkEncryptionKey: false,
      });
      await context.get(Database).manager.query('DELETE FROM encryption_key_fingerprints');
      await context.close();

      const message = await refusal(keyB);
      expect(message).toContain(
        'does not open the secrets already stored in this database (idempotency_records, notification_signing_secrets, webhook_endpoints)',
      );
      expect(await storedFingerprints()).toEqual([]);
      await expectSecretsOpen(await start(keyA), seeded);
      expect(await storedFingerprints()).toHaveLength(1);
    });
  });

  describe('encryption:reseal', () => {
    it('re-seals every stored secret under the new key in one go; B then starts and opens them, A is refused; a second run changes nothing', async () => {
      const appA = await start(keyA);
      const seeded = await seedSecrets(appA);
      // A processor key as the revenue connection stores it (the connect route needs a processor to ask).
      const managerA = appA.get(Database).manager;
      const [{ project_id: projectId }] = await managerA.query('SELECT project_id FROM webhook_endpoints WHERE id = $1', [
        seeded.endpointId,
      ]);
      await managerA.insert(RevenueConnectionEntity, {
        id: 'rvc_reseal',
        projectId,
        accountId: null,
        provider: 'stripe',
        keyCiphertext: new SecretBox(keyA).seal('rk_test_reseal'),
        keyLastFour: 'seal',
        keyMode: 'test',
        permissions: [],
        connectedAt: new Date(),
      });
      await closeAll();

      const first = await cli(keyB, keyA, 'encryption:reseal', '--json');
      expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
      expect(first.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(first.stdout)).toEqual({
        resealed: { idempotency_records: 1, notification_signing_secrets: 1, revenue_connections: 1, webhook_endpoints: 3 },
        unchanged: { idempotency_records: 0, notification_signing_secrets: 0, revenue_connections: 0, webhook_endpoints: 0 },
      });

      expect(await refusal(keyA)).toContain('ENCRYPTION_KEY is not the key');
      const appB = await start(keyB);
      await expectSecretsOpen(appB, seeded);
      const [row] = await appB.get(Database).manager.query("SELECT key_ciphertext FROM revenue_connections WHERE id = 'rvc_reseal'");
      expect(new SecretBox(keyB).open(row.key_ciphertext)).toBe('rk_test_reseal');
      await closeAll();

      const again = await cli(keyB, keyA, 'encryption:reseal', '--json');
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual({
        resealed: { idempotency_records: 0, notification_signing_secrets: 0, revenue_connections: 0, webhook_endpoints: 0 },
        unchanged: { idempotency_records: 1, notification_signing_secrets: 1, revenue_connections: 1, webhook_endpoints: 3 },
      });
    });

    it('changes nothing when one value opens under neither key, and names its row', async () => {
      const app = await start(keyA);
      const seeded = await seedSecrets(app);
      const manager = app.get(Database).manager;
      const damaged = await seedSecrets(app);
      await manager.query('UPDATE webhook_endpoints SET url_ciphertext = $2 WHERE id = $1', [
        damaged.endpointId,
        new SecretBox(keyC).seal(receiver.url),
      ]);
      const before = await manager.query('SELECT id, url_ciphertext, secret_ciphertext FROM webhook_endpoints ORDER BY id');
      await closeAll();

      const failed = await cli(keyB, keyA, 'encryption:reseal', '--json');
      expect(failed).toMatchObject({ code: 1, stdout: '' });
      expect(failed.stderr).toContain(`webhook_endpoints ${damaged.endpointId}: a stored secret opens under neither`);
      expect(failed.stderr).toContain('Nothing was changed');

      const after = await start(keyA);
      expect(
        await after.get(Database).manager.query('SELECT id, url_ciphertext, secret_ciphertext FROM webhook_endpoints ORDER BY id'),
      ).toEqual(before);
      await expectSecretsOpen(after, seeded);
    });

    it('refuses a database sealed under a third key, and missing or equal keys', async () => {
      await start(keyA);
      await closeAll();
      const third = await cli(keyB, keyC, 'encryption:reseal');
      expect(third.code).toBe(1);
      expect(third.stderr).toContain('sealed under neither ENCRYPTION_KEY_PREVIOUS nor ENCRYPTION_KEY');
      expect(await cli(keyB, null, 'encryption:reseal')).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('ENCRYPTION_KEY_PREVIOUS is not set'),
      });
      expect(await cli(keyA, keyA, 'encryption:reseal')).toMatchObject({ code: 1, stderr: expect.stringContaining('same key') });
      // Still the first key's database.
      await start(keyA);
    });
  });
});
