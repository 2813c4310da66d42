import { Inject, Injectable } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { userHashOf } from '../auth/user-hash';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { SigningSecretsService } from '../notifications/identity/signing-secrets.service';
import type { CreateNotificationDto } from '../notifications/sending/dto/create-notification.dto';
import { SendService } from '../notifications/sending/send.service';
import type { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { demoPublishableKey } from './demo-key';

/** The project `npm start` seeds on an empty database (src/demo-seed.ts). */
const DEMO_SLUG = 'demo';
/** The signed-in person the demo page plays. */
const DEMO_USER_ID = 'demo-user';

/** What GET /demo embeds: nothing secret beyond what a customer's page holds. */
export interface DemoSetup {
  projectSlug: string;
  publishableKey: string;
  /** The derived key was revoked by someone: the scripts cannot load with it. */
  keyRevoked: boolean;
  userId: string;
  userHash: string;
  cdnUrl: string;
  publicBaseUrl: string;
}

/**
 * The development demo page (GET /demo): both browser scripts wired to the demo project, as a
 * customer's page would embed them, and a button that sends the demo person a notification.
 * Everything secret stays here: the publishable key is derived (demo-key.ts), the user hash is
 * computed with the project's signing secret, which this creates when the project has none (it is
 * then shown nowhere; rotating it gives one to copy), and sending goes through SendService, so no
 * secret key is involved at all.
 */
@Injectable()
export class DemoService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly projects: ProjectsService,
    private readonly apiKeys: ApiKeysService,
    private readonly signingSecrets: SigningSecretsService,
    private readonly sender: SendService,
  ) {}

  /** The page's settings; null when this server has no demo project. */
  async describeDemo(): Promise<DemoSetup | null> {
    const project = await this.projects.findBySlug(DEMO_SLUG);
    if (!project) return null;
    const publishableKey = demoPublishableKey(this.encryptionKey(), project.id);
    const stored = await this.apiKeys.ensurePublishableKey(project.id, publishableKey);
    return {
      projectSlug: project.slug,
      publishableKey,
      keyRevoked: stored.revoked,
      userId: DEMO_USER_ID,
      userHash: userHashOf(DEMO_USER_ID, await this.signingSecret(project)),
      cdnUrl: this.config.cdnUrl,
      publicBaseUrl: this.config.publicBaseUrl,
    };
  }

  /** Sends the demo person a notification; false when there is no demo project. */
  async sendTestNotification(): Promise<boolean> {
    const project = await this.projects.findBySlug(DEMO_SLUG);
    if (!project) return false;
    const time = this.clock.now().toISOString().slice(11, 19);
    const input = { user_id: DEMO_USER_ID, title: 'Test notification', body: `Sent from the demo page at ${time} UTC.`, category: 'demo' };
    await this.sender.createNotification(project, input as CreateNotificationDto);
    return true;
  }

  private async signingSecret(project: ProjectRef): Promise<string> {
    const { current } = await this.signingSecrets.readSecrets(project.id);
    if (current) return current;
    try {
      return (await this.signingSecrets.createSecret(project)).signing_secret;
    } catch (error) {
      // Another tab created it a moment ago: read that one.
      if (!(error instanceof ApiError) || error.code !== 'SIGNING_SECRET_ALREADY_SHOWN') throw error;
      const { current: created } = await this.signingSecrets.readSecrets(project.id);
      if (!created) throw error;
      return created;
    }
  }

  private encryptionKey(): Buffer {
    // bootstrap.ts always provides one (generated into DATA_DIR when unset).
    if (!this.config.encryptionKey) throw new Error('ENCRYPTION_KEY is not configured');
    return this.config.encryptionKey;
  }
}
