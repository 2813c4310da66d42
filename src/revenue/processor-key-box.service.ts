import { Inject, Injectable } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * Seals and opens processor keys with ENCRYPTION_KEY. Without a usable key the app still starts
 * (the CLI may run without one) and connecting answers PROCESSOR_CONNECT_NOT_CONFIGURED.
 */
@Injectable()
export class ProcessorKeyBox {
  private readonly box: SecretBox | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = config.encryptionKey && config.encryptionKey.length === 32 ? new SecretBox(config.encryptionKey) : null;
  }

  get configured(): boolean {
    return this.box !== null;
  }

  seal(key: string): string {
    return this.required().seal(key);
  }

  open(sealed: string): string {
    return this.required().open(sealed);
  }

  private required(): SecretBox {
    if (!this.box) throw new Error('ENCRYPTION_KEY is not configured');
    return this.box;
  }
}
