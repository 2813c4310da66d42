import { Injectable } from '@nestjs/common';
import { ApiKeysService } from '../../auth/api-keys.service';
import { idempotently } from '../../idempotency/idempotent-call';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { CreateKeyDto, CreatedKeyDto, KeyDto, toKeyDto } from './dto/key.dto';

/**
 * API keys from the dashboard (issue 14 item 3). The rules live in ApiKeysService, which the
 * operator CLI's key commands share: per-plan caps of active keys per type (plans.ts), counted
 * under the project's row lock; test keys on the test-mode twin; a revocation refused from the
 * next request on in every process.
 */
@Injectable()
export class DashboardKeysService {
  constructor(
    private readonly db: Database,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async listKeys(project: ProjectRef): Promise<KeyDto[]> {
    return (await this.apiKeys.listKeys(project)).map(toKeyDto);
  }

  async createKey(project: ProjectRef, input: CreateKeyDto): Promise<CreatedKeyDto> {
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        const issued = await this.apiKeys.createKey(em, project.id, input.type, input.mode ?? 'live');
        const listed = toKeyDto({
          id: issued.id,
          type: issued.type,
          mode: issued.mode,
          prefix: issued.prefix,
          lastFour: issued.key.slice(-4),
          createdAt: issued.createdAt,
          lastUsedAt: null,
          revokedAt: null,
        });
        return { ...listed, key: issued.key };
      }),
    );
  }

  async revokeKey(project: ProjectRef, keyId: string): Promise<KeyDto> {
    return toKeyDto(await this.apiKeys.revokeKeyById(project, keyId));
  }
}
