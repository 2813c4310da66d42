import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The fingerprint of the key the stored secrets are sealed with (key-fingerprint.ts), one row per
 * key setting: today only `ENCRYPTION_KEY`. Recorded by the first start that has a key, replaced
 * by `encryption:reseal`; every later start compares its own key against it. Never the key itself.
 */
@Entity({ name: 'encryption_key_fingerprints' })
export class EncryptionKeyFingerprintEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  setting: string;

  /** HMAC-SHA256 of a fixed label under the key, hex. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  /** When this key was first recorded, or re-sealed to. */
  @Column({ type: 'timestamptz' })
  recordedAt: Date;
}
