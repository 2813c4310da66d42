import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Subscription } from 'rxjs';
import { EntityManager, IsNull } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { newId } from '../common/ids/ids';
import { Database } from '../infra/database/database';
import { ProjectEntity } from '../projects/entities/project.entity';
import { PLATFORM_LIMITS } from '../projects/plans';
import { ProjectRef, toProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { generateApiKey, hashApiKey, keyPrefixOf } from './api-key-format';
import { ApiKeyEntity, ApiKeyMode, ApiKeyType } from './entities/api-key.entity';

export interface IssuedKey {
  id: string;
  /** The full key. Shown once: only its hash is stored. */
  key: string;
  type: ApiKeyType;
  mode: ApiKeyMode;
}

export interface AuthenticatedKey {
  id: string;
  type: ApiKeyType;
  mode: ApiKeyMode;
  revoked: boolean;
  project: ProjectRef;
}

interface CacheEntry {
  value: AuthenticatedKey | null;
  expiresAt: number;
}

// Keys are looked up on every request; a short cache keeps that off the database. Revocation and
// plan changes made in this process clear it at once; other processes see them within the TTL.
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;

@Injectable()
export class ApiKeysService implements OnModuleDestroy {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly projectChanges: Subscription;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    projects: ProjectsService,
  ) {
    this.projectChanges = projects.changes.subscribe(() => this.cache.clear());
  }

  onModuleDestroy(): void {
    this.projectChanges.unsubscribe();
  }

  /** Creates a key inside the caller's transaction; refuses past the per-type cap of active keys. */
  async createKey(em: EntityManager, projectId: string, type: ApiKeyType, mode: ApiKeyMode = 'live'): Promise<IssuedKey> {
    // Serialises concurrent creations for one project so the cap holds.
    await em.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
    const active = await em.count(ApiKeyEntity, { where: { projectId, type, revokedAt: IsNull() } });
    if (active >= PLATFORM_LIMITS.activeKeysPerType) {
      throw new ApiError('API_KEY_LIMIT_REACHED', `This project already has ${active} active ${type} keys.`, { param: 'type' });
    }
    return this.insertKey(em, projectId, type, mode, generateApiKey(type, mode));
  }

  /** Stores a key given in full; used to import keys issued under the legacy `sk_live_` prefix. */
  async importKey(em: EntityManager, projectId: string, key: string): Promise<IssuedKey> {
    return this.insertKey(em, projectId, 'secret', 'live', key);
  }

  async revokeKey(fullKey: string): Promise<{ id: string; revoked: true }> {
    const hash = hashApiKey(fullKey);
    const row = await this.db.manager.findOne(ApiKeyEntity, { where: { secretHash: hash } });
    if (!row) throw new ApiError('NOT_FOUND', 'No such key.', { param: 'key' });
    if (!row.revokedAt) await this.db.manager.update(ApiKeyEntity, { id: row.id }, { revokedAt: this.clock.now() });
    this.cache.delete(hash);
    return { id: row.id, revoked: true };
  }

  /**
   * The key and its project (null: no such key) when the cache holds it; undefined when it must be
   * loaded. Synchronous, so the request path awaits nothing for a known key.
   */
  cachedKey(token: string): AuthenticatedKey | null | undefined {
    const cached = this.cache.get(hashApiKey(token));
    return cached && cached.expiresAt > Date.now() ? cached.value : undefined;
  }

  /** The key and its project, or null when no such key exists. */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    const cached = this.cachedKey(token);
    if (cached !== undefined) return cached;
    const hash = hashApiKey(token);
    const value = await this.load(hash);
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(hash, { value, expiresAt: Date.now() + CACHE_TTL_MS });
    return value;
  }

  private async load(hash: string): Promise<AuthenticatedKey | null> {
    const row = await this.db.manager.findOne(ApiKeyEntity, { where: { secretHash: hash } });
    if (!row) return null;
    const project = await this.db.manager.findOne(ProjectEntity, { where: { id: row.projectId } });
    if (!project) return null;
    return { id: row.id, type: row.type, mode: row.mode, revoked: row.revokedAt !== null, project: toProjectRef(project) };
  }

  private async insertKey(em: EntityManager, projectId: string, type: ApiKeyType, mode: ApiKeyMode, key: string): Promise<IssuedKey> {
    const row = Object.assign(new ApiKeyEntity(), {
      id: newId('key'),
      projectId,
      type,
      mode,
      prefix: keyPrefixOf(key),
      lastFour: key.slice(-4),
      secretHash: hashApiKey(key),
      createdAt: this.clock.now(),
      revokedAt: null,
    });
    await em.insert(ApiKeyEntity, row);
    return { id: row.id, key, type, mode };
  }
}
