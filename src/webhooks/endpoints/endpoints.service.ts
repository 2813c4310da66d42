import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiKeysService } from '../../auth/api-keys.service';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { isId, newId } from '../../common/ids/ids';
import { idempotently } from '../../idempotency/idempotent-call';
import { Database } from '../../infra/database/database.service';
import { assertPlanAllows } from '../../projects/requires-feature';
import { planLimit } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectsService } from '../../projects/projects.service';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';
import { WebhookUrlPolicy } from '../url-policy/webhook-url-policy.service';
import { maskWebhookUrl } from '../url-policy/url-rules';
import { CreateEndpointDto } from './dto/create-endpoint.dto';
import {
  CreatedEndpointDto,
  EndpointDto,
  EndpointListDto,
  RotatedEndpointDto,
  subscribableEvents,
  toEndpointDto,
} from './dto/endpoint.dto';
import { DeletedEndpointDto } from './dto/deleted-endpoint.dto';
import { UpdateEndpointDto } from './dto/update-endpoint.dto';
import { parseEvents } from './endpoint-events';
import { generateWebhookSecret, PREVIOUS_SECRET_GRACE_MS, WebhookSecretBox } from './endpoint-secrets';
import { lockProject } from '../../projects/project-lock';
import { SealedValues } from '../../infra/encryption/sealed-values.service';
import {
  countEndpoints,
  deleteEndpoint,
  enabledEndpointExists,
  findEndpoint,
  listEndpoints,
  resealEndpoints,
  sampleSealedEndpointValue,
} from './endpoints.queries';

/** The reason shown when the owner switches an endpoint off (PATCH status disabled). */
const DISABLED_BY_OWNER = 'disabled by the owner';

/**
 * Webhook endpoints (spec: Webhook endpoint, Endpoints → Webhooks, Limits → Webhooks).
 *
 * Choices the spec leaves open:
 * - Plan gate on create only: Free answers PLAN_UPGRADE_REQUIRED; at the plan's count (Indie 2,
 *   Builder 5) WEBHOOK_LIMIT_REACHED, decided under a lock on the project row, so two concurrent
 *   creates at the limit give one 201. Disabled endpoints count. Listing, reading, editing and
 *   deleting work on every plan, so a project that moved down can still see and remove its
 *   endpoints (the limit of the list then says 0).
 * - The record: {id, url (masked), events, format, status, disabled_reason, disabled_at,
 *   consecutive_failures, created_at, updated_at}; `signing_secret` only in the create and rotate
 *   answers. Status `enabled` | `disabled` (the spec's "switched off"), with a reason.
 * - The URL and secret are sealed with ENCRYPTION_KEY (AES-256-GCM); the masked URL is kept beside
 *   them (url-rules.ts maskWebhookUrl). The columns are registered with SealedValues, so
 *   `encryption:reseal` moves them to a new key. URL rules: url-policy/ (https, default port, no
 *   credentials, no IP literal, no internal name, public DNS only; chat formats need the service's
 *   URL shape; a recognised chat URL sent as json stays json).
 * - Secret: `whsec_` + 32 base64url characters; the whole string is the HMAC key (as Stripe's).
 *   Idempotency-Key on create replays the first answer, secret included, for 24 h (as Stripe's).
 * - Rotate: a new secret, shown once; the old one keeps signing for 24 h next to it. Rotating again
 *   within those 24 h drops the oldest: only the current and the one just replaced sign. Not
 *   idempotent: a retried rotate rotates again, and its answer's secret is the one that signs.
 * - PATCH: only the fields sent change; a new URL or format is checked like on create (a format
 *   change alone re-checks the stored URL). `status: enabled` clears the failure count and
 *   reason (also on an enabled endpoint); `disabled` switches it off with "disabled by the owner"
 *   (an endpoint already disabled keeps its first reason).
 * - DELETE answers {id, deleted: true}; its deliveries (and their log) go with it.
 * - Creating, deleting, enabling and disabling announce the project's change in their transaction:
 *   the API key cache's copy of the project says whether it has an enabled endpoint, and requests
 *   whose copy says none skip planning deliveries (delivery/delivery-planner.ts has the rule).
 * - Events: catalog types or exactly ["*"]; duplicates dropped; unknown → VALIDATION_ERROR `events.<i>`.
 */
@Injectable()
export class EndpointsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly urls: WebhookUrlPolicy,
    @Inject(WebhookSecretBox) private readonly box: WebhookSecretBox,
    private readonly projects: ProjectsService,
    sealedValues: SealedValues,
    apiKeys: ApiKeysService,
  ) {
    sealedValues.register({ name: 'webhook_endpoints', sample: sampleSealedEndpointValue, resealAll: resealEndpoints });
    apiKeys.readWebhookEndpointsWith(enabledEndpointExists);
  }

  async createEndpoint(project: ProjectRef, input: CreateEndpointDto): Promise<CreatedEndpointDto> {
    assertPlanAllows(project, 'webhooks');
    const events = parseEvents(input.events);
    const format = input.format ?? 'json';
    // DNS is checked before the transaction: no connection is held while the resolver answers.
    const url = await this.urls.check(input.url, format);
    const secret = generateWebhookSecret();
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        await this.assertBelowLimit(em, project);
        const now = this.clock.now();
        const row = Object.assign(new WebhookEndpointEntity(), {
          id: newId('we'),
          projectId: project.id,
          urlCiphertext: this.box.seal(url.href),
          urlMasked: maskWebhookUrl(url),
          events,
          format,
          status: 'enabled',
          disabledReason: null,
          disabledAt: null,
          consecutiveFailures: 0,
          secretCiphertext: this.box.seal(secret),
          previousSecretCiphertext: null,
          previousSecretValidUntil: null,
          createdAt: now,
          updatedAt: now,
        } satisfies WebhookEndpointEntity);
        await em.insert(WebhookEndpointEntity, row);
        await this.projects.announceChange(em, project.id);
        return { ...toEndpointDto(row), signing_secret: secret };
      }),
    );
  }

  async listEndpoints(project: ProjectRef): Promise<EndpointListDto> {
    const rows = await listEndpoints(this.db.manager, project.id);
    return { endpoints: rows.map(toEndpointDto), limit: planLimit(project.plan, 'webhookEndpoints'), events: subscribableEvents() };
  }

  /** Enabled endpoints an event of `type` would be delivered to, by format (the delivery planner's rule). */
  async subscribedEndpoints(project: ProjectRef, type: string): Promise<{ json: number; chat: number }> {
    const rows = await listEndpoints(this.db.manager, project.id);
    const reached = rows.filter((row) => row.status === 'enabled' && (row.events.includes(type) || row.events.includes('*')));
    return { json: reached.filter((row) => row.format === 'json').length, chat: reached.filter((row) => row.format !== 'json').length };
  }

  async getEndpoint(project: ProjectRef, endpointId: string): Promise<EndpointDto> {
    return toEndpointDto(await this.mustFind(this.db.manager, project, endpointId));
  }

  async updateEndpoint(project: ProjectRef, endpointId: string, input: UpdateEndpointDto): Promise<EndpointDto> {
    // @IsOptional lets null through; no field of an endpoint can be cleared.
    for (const field of ['url', 'events', 'format', 'status'] as const) {
      if (input[field] === null) throw new ApiError('VALIDATION_ERROR', `${field} cannot be null.`, { param: field });
    }
    const events = input.events === undefined ? undefined : parseEvents(input.events);
    const current = await this.mustFind(this.db.manager, project, endpointId);
    const format = input.format ?? current.format;
    const url =
      input.url !== undefined || format !== current.format
        ? await this.urls.check(input.url ?? this.box.open(current.urlCiphertext), format)
        : null;
    return this.db.transaction(async (em) => {
      const row = await this.mustFind(em, project, endpointId, true);
      const wasEnabled = row.status === 'enabled';
      const now = this.clock.now();
      if (url) Object.assign(row, { urlCiphertext: this.box.seal(url.href), urlMasked: maskWebhookUrl(url), format });
      if (events) row.events = events;
      if (input.status === 'enabled')
        Object.assign(row, { status: 'enabled', disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
      if (input.status === 'disabled' && row.status !== 'disabled') {
        Object.assign(row, { status: 'disabled', disabledReason: DISABLED_BY_OWNER, disabledAt: now });
      }
      row.updatedAt = now;
      await em.save(WebhookEndpointEntity, row);
      if (wasEnabled !== (row.status === 'enabled')) await this.projects.announceChange(em, project.id);
      return toEndpointDto(row);
    });
  }

  async deleteEndpoint(project: ProjectRef, endpointId: string): Promise<DeletedEndpointDto> {
    if (!isId('we', endpointId)) throw notFound(endpointId);
    await this.db.transaction(async (em) => {
      if (!(await deleteEndpoint(em, project.id, endpointId))) throw notFound(endpointId);
      await this.projects.announceChange(em, project.id);
    });
    return { id: endpointId, deleted: true };
  }

  async rotateSecret(project: ProjectRef, endpointId: string): Promise<RotatedEndpointDto> {
    const secret = generateWebhookSecret();
    return this.db.transaction(async (em) => {
      const row = await this.mustFind(em, project, endpointId, true);
      const now = this.clock.now();
      const validUntil = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
      Object.assign(row, {
        previousSecretCiphertext: row.secretCiphertext,
        previousSecretValidUntil: validUntil,
        secretCiphertext: this.box.seal(secret),
        updatedAt: now,
      });
      await em.save(WebhookEndpointEntity, row);
      return { ...toEndpointDto(row), signing_secret: secret, previous_secret_valid_until: validUntil.toISOString() };
    });
  }

  private async assertBelowLimit(em: EntityManager, project: ProjectRef): Promise<void> {
    await lockProject(em, project.id);
    const max = planLimit(project.plan, 'webhookEndpoints');
    const count = await countEndpoints(em, project.id);
    if (count >= max) {
      throw new ApiError('WEBHOOK_LIMIT_REACHED', `The ${project.plan} plan allows ${max} webhook endpoints; this project has ${count}.`);
    }
  }

  private async mustFind(em: EntityManager, project: ProjectRef, endpointId: string, forUpdate = false): Promise<WebhookEndpointEntity> {
    const row = isId('we', endpointId) ? await findEndpoint(em, project.id, endpointId, forUpdate) : null;
    if (!row) throw notFound(endpointId);
    return row;
  }
}

function notFound(endpointId: string): ApiError {
  return new ApiError('NOT_FOUND', `No webhook endpoint ${endpointId.slice(0, 64)} in this project.`, { param: 'id' });
}
