import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { newId } from '../common/ids/ids';
import { ChangeNotifications } from '../infra/database/change-notifications.service';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import { activeKeyLimit } from '../projects/plans';
import { ProjectRef, toProjectRef } from '../projects/project-ref';
import { projectAndTwinIds } from '../projects/projects.queries';
import { PROJECT_CHANGE, ProjectsService } from '../projects/projects.service';
import { BoundedMap } from '../common/cache/bounded-map';
import { LookupCache } from '../common/cache/lookup-cache';
import { type KeyWithProject, type ProjectProbe, type RevokeTarget, findKeyWithProject, revokeKey } from './api-keys.queries';
import { LEGACY_KEY_SHAPE, PUBLISHABLE_LIVE_KEY_SHAPE, generateApiKey, hashApiKey, isPublishableKey, keyPrefixOf } from './api-key-format';
import { ApiKeyEntity, ApiKeyMode, ApiKeyType } from './entities/api-key.entity';

interface IssuedKey {
  id: string;
  /** The full key. Shown once: only its hash is stored. */
  key: string;
  type: ApiKeyType;
  mode: ApiKeyMode;
  /** The project the key belongs to: the test-mode twin for a test key. */
  projectId: string;
  prefix: string;
  createdAt: Date;
}

/** Publishable keys whose hash is remembered (lookupHashOf): about a megabyte. */
const MAX_REMEMBERED_PUBLISHABLE_KEYS = 10_000;

/** A key as the request path knows it, with its project (which says whether it has webhook endpoints). */
export type AuthenticatedKey = KeyWithProject;

/** A key as lists show it: never the full key. */
export interface ListedKey {
  id: string;
  type: ApiKeyType;
  mode: ApiKeyMode;
  prefix: string;
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

function toListedKey(row: ApiKeyEntity): ListedKey {
  return {
    id: row.id,
    type: row.type,
    mode: row.mode,
    prefix: row.prefix,
    lastFour: row.lastFour,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/** The change kind a key's creation, import or revocation is announced under (id: the key's hash). */
const KEY_CHANGE = 'key';
/** A test key's entry belongs to its twin and to the live project, whose changes the twin follows. */
const ownersOfKey = (key: AuthenticatedKey): readonly string[] =>
  key.project.liveProjectId ? [key.project.id, key.project.liveProjectId] : [key.project.id];

/**
 * API keys: issued, imported, revoked, and looked up on every request.
 *
 * Lookups are cached per process (common/cache/lookup-cache.ts). Creating, importing and revoking a key send a
 * NOTIFY inside their transaction; every process LISTENs (ChangeNotifications) and drops the
 * key's entry when it arrives, so a revocation is refused on the next request everywhere and a new
 * key works at once even where it was cached as unknown. A project change (plan, name, slug,
 * deletion) drops that project's keys the same way, its test-mode twin's included. Nothing else is
 * dropped: other tenants' entries stay warm. While the listener is down the cache is cleared and
 * entries live at most their TTL.
 * The cached project also says whether it has an enabled webhook endpoint (read in the lookup's
 * one statement, readWebhookEndpointsWith); endpoint changes that can flip it announce the project's
 * change, so the copy is dropped like after a plan change.
 * On the embedded database the listener is off: one process holds it (the data-dir lock), so the
 * in-process invalidation is complete.
 *
 * Test mode: a svc_test_ key belongs to the live project's test-mode twin (ProjectsService.testTwinOf),
 * a project of its own, so test data never mixes with live data.
 */
@Injectable()
export class ApiKeysService {
  // Nothing is cached until the listener is in place: a revocation made elsewhere before then would go unheard.
  private readonly cache = new LookupCache<AuthenticatedKey>({ ownersOf: ownersOfKey, storing: () => this.changes.isListening });
  private readonly publishableKeyHashes = new BoundedMap<string, string>(MAX_REMEMBERED_PUBLISHABLE_KEYS);
  private webhookEndpoints: ProjectProbe | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly projects: ProjectsService,
    private readonly changes: ChangeNotifications,
  ) {
    changes.subscribe({
      onChange: {
        [KEY_CHANGE]: (hash) => this.cache.invalidate(hash),
        [PROJECT_CHANGE]: (projectId) => this.cache.invalidateOwner(projectId),
      },
      onGap: () => this.cache.clear(),
    });
  }

  /**
   * webhooks/ hands in its EXISTS over a project's enabled endpoints, read with every key lookup
   * into the cached project's `hasWebhookEndpoints` (the table is that module's). Its owner
   * announces the project's change (PROJECT_CHANGE) whenever the answer can flip, which drops
   * the project's keys here and in every other process.
   */
  readWebhookEndpointsWith(probe: ProjectProbe): void {
    this.webhookEndpoints = probe;
  }

  /** True once cross-process invalidation is in place (always true on the embedded database). */
  get invalidationListening(): boolean {
    return this.changes.isListening;
  }

  /**
   * Creates a key inside the caller's transaction; refuses past the per-type cap of active keys. A
   * test key goes to the project's test-mode twin, created on first use.
   */
  async createKey(em: EntityManager, projectId: string, type: ApiKeyType, mode: ApiKeyMode = 'live'): Promise<IssuedKey> {
    const owner = await this.ownerOf(em, projectId, mode);
    await this.assertBelowCap(em, owner, type);
    return this.insertKey(em, owner, type, mode, generateApiKey(type, mode));
  }

  /** Stores a key given in full: keeps a key issued under the legacy `sk_live_` prefix working. */
  async importKey(em: EntityManager, projectId: string, key: string): Promise<IssuedKey> {
    if (!LEGACY_KEY_SHAPE.test(key)) {
      throw new ApiError('VALIDATION_ERROR', 'A legacy key is "sk_live_" followed by 16 to 64 letters and digits.', { param: 'key' });
    }
    const owner = await this.ownerOf(em, projectId, 'live');
    await this.assertBelowCap(em, owner, 'secret');
    await em.query('SAVEPOINT import_key');
    try {
      const issued = await this.insertKey(em, owner, 'secret', 'live', key);
      await em.query('RELEASE SAVEPOINT import_key');
      return issued;
    } catch (error) {
      await em.query('ROLLBACK TO SAVEPOINT import_key');
      if (isUniqueViolation(error, 'uq_api_keys_secret_hash')) {
        throw new ApiError('VALIDATION_ERROR', 'This key is already stored.', { param: 'key' });
      }
      throw error;
    }
  }

  /**
   * Stores `key`, a live publishable key made elsewhere (the development demo page derives its own,
   * so that it needs no key in clear), for the project, unless it is stored already. Answers
   * whether it is revoked. The project row lock orders concurrent calls, so the key is stored once.
   */
  async ensurePublishableKey(projectId: string, key: string): Promise<{ id: string; revoked: boolean }> {
    if (!PUBLISHABLE_LIVE_KEY_SHAPE.test(key)) throw new Error('ensurePublishableKey takes a live publishable key');
    return this.db.transaction(async (em) => {
      const owner = await this.ownerOf(em, projectId, 'live');
      const stored = await em.findOne(ApiKeyEntity, { where: { secretHash: hashApiKey(key) } });
      if (stored?.projectId === owner.id) return { id: stored.id, revoked: stored.revokedAt !== null };
      if (stored) throw new Error(`The key belongs to another project than ${projectId}`);
      await this.assertBelowCap(em, owner, 'publishable');
      return { id: (await this.insertKey(em, owner, 'publishable', 'live', key)).id, revoked: false };
    });
  }

  /** Revokes a key given in full (the CLI); every process refuses it from its next request on. Revoking twice is harmless. */
  async revokeKey(fullKey: string): Promise<{ id: string; revoked: true }> {
    const row = await this.db.transaction((em) => this.revokeWhere(em, { secretHash: hashApiKey(fullKey) }));
    if (!row) throw new ApiError('NOT_FOUND', 'No such key.', { param: 'key' });
    return { id: row.id, revoked: true };
  }

  /**
   * Revokes a key of the project (or of its test-mode twin) by id: the dashboard's revoke. Answers
   * the key as listed; revoking twice keeps the first revocation time. Another project's key is NOT_FOUND.
   */
  async revokeKeyById(project: ProjectRef, keyId: string): Promise<ListedKey> {
    const row = await this.db.transaction((em) => this.revokeWhere(em, { id: keyId, ofProjectOrTwin: project.id }));
    if (!row) throw new ApiError('NOT_FOUND', `This project has no key ${keyId.slice(0, 64)}.`, { param: 'id' });
    return toListedKey(row);
  }

  /** The keys of a project and of its test-mode twin, newest first; never a full key. */
  async listKeys(project: ProjectRef): Promise<ListedKey[]> {
    const rows = await this.db.manager
      .createQueryBuilder(ApiKeyEntity, 'key')
      .where(`key.project_id IN (${projectAndTwinIds(':id')})`, { id: project.id })
      .orderBy('key.created_at', 'DESC')
      .addOrderBy('key.id', 'DESC')
      .getMany();
    return rows.map(toListedKey);
  }

  /**
   * The key and its project (null: no such key) when the cache holds it; undefined when it must be
   * loaded. Synchronous, so the request path awaits nothing for a known key.
   */
  cachedKey(token: string): AuthenticatedKey | null | undefined {
    return this.cache.get(this.lookupHashOf(token), this.clock.now().getTime());
  }

  /** The key and its project, or null when no such key exists. */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    return this.cache.lookup(this.lookupHashOf(token), this.now, (hash) => {
      this.changes.start();
      return this.load(hash);
    });
  }

  private readonly now = (): number => this.clock.now().getTime();

  /**
   * The hash a key is stored and cached under. A publishable key's is remembered: every browser
   * request sends one, and it is public (it sits in pages), so holding it in memory costs nothing
   * a page does not show. A secret key is hashed each time, so that no secret stays in memory
   * past its request.
   */
  private lookupHashOf(token: string): string {
    if (!isPublishableKey(token)) return hashApiKey(token);
    let hash = this.publishableKeyHashes.get(token);
    if (hash === undefined) this.publishableKeyHashes.set(token, (hash = hashApiKey(token)));
    return hash;
  }

  private async ownerOf(em: EntityManager, projectId: string, mode: ApiKeyMode): Promise<ProjectRef> {
    if (mode === 'test') return this.projects.testTwinOf(em, projectId);
    // Serialises concurrent creations for one project so the cap holds.
    const row = await this.projects.lockedProject(em, projectId);
    if (!row) throw new ApiError('NOT_FOUND', `No project ${projectId}.`, { param: 'project' });
    if (row.liveProjectId) {
      throw new ApiError('VALIDATION_ERROR', `${projectId} is a test-mode project: it only takes test keys.`, { param: 'project' });
    }
    return toProjectRef(row);
  }

  /** The caller holds the live project's row lock (ownerOf, testTwinOf), so concurrent creations count one after another. */
  private async assertBelowCap(em: EntityManager, project: ProjectRef, type: ApiKeyType): Promise<void> {
    const limit = activeKeyLimit(project.plan, type);
    const active = await em.count(ApiKeyEntity, { where: { projectId: project.id, type, revokedAt: IsNull() } });
    if (active >= limit) {
      throw new ApiError(
        'API_KEY_LIMIT_REACHED',
        `This project already has ${active} active ${project.mode} ${type} keys, the plan's limit.`,
        {
          param: 'type',
          remediation: `The ${project.plan} plan allows ${limit} active ${type} keys per project; revoke one you no longer use, or upgrade.`,
        },
      );
    }
  }

  /** Sets revoked_at on the matching key (keeping an earlier one) and announces the change. */
  private async revokeWhere(em: EntityManager, target: RevokeTarget): Promise<ApiKeyEntity | null> {
    const row = await revokeKey(em, target, this.clock.now());
    if (!row) return null;
    await this.changes.announce(em, KEY_CHANGE, row.secret_hash);
    return Object.assign(new ApiKeyEntity(), {
      id: row.id,
      type: row.type,
      mode: row.mode,
      prefix: row.prefix,
      lastFour: row.last_four,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    });
  }

  private load(hash: string): Promise<AuthenticatedKey | null> {
    return findKeyWithProject(this.db.reads, hash, this.webhookEndpoints);
  }

  private async insertKey(em: EntityManager, project: ProjectRef, type: ApiKeyType, mode: ApiKeyMode, key: string): Promise<IssuedKey> {
    const row = Object.assign(new ApiKeyEntity(), {
      id: newId('key'),
      projectId: project.id,
      type,
      mode,
      prefix: keyPrefixOf(key),
      lastFour: key.slice(-4),
      secretHash: hashApiKey(key),
      createdAt: this.clock.now(),
      revokedAt: null,
      lastUsedAt: null,
    });
    await em.insert(ApiKeyEntity, row);
    // A lookup of this key may be cached as unknown, here or elsewhere.
    await this.changes.announce(em, KEY_CHANGE, row.secretHash);
    return { id: row.id, key, type, mode, projectId: project.id, prefix: row.prefix, createdAt: row.createdAt };
  }
}
