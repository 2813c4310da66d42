import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An idempotency record's answer may be sealed with ENCRYPTION_KEY: the answers that show a secret
 * once (a created API key, a webhook's signing secret and URL). Records written before stay as
 * they are and expire within 24 hours.
 */
export class IdempotencySealedAnswers1796014153821 implements MigrationInterface {
  name = 'IdempotencySealedAnswers1796014153821';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_records" ADD "response_sealed" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_records" DROP COLUMN "response_sealed"`);
  }
}
