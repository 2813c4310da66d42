import { MigrationInterface, QueryRunner } from 'typeorm';

export class EncryptionKeyFingerprints1795794861982 implements MigrationInterface {
  name = 'EncryptionKeyFingerprints1795794861982';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "encryption_key_fingerprints" ("setting" character varying(64) NOT NULL, "fingerprint" character varying(64) NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8fcc73a1cd9e01711437d99b78d" PRIMARY KEY ("setting"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "encryption_key_fingerprints"`);
  }
}
