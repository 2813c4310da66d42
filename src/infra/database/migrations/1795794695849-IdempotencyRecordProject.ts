import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency records name the project their request acted on, so that erasing a person finds the
 * answers that carry them. Records written before are filed under the project of their API key;
 * those of dashboard accounts stay unfiled and expire within 24 hours.
 */
export class IdempotencyRecordProject1795794695849 implements MigrationInterface {
  name = 'IdempotencyRecordProject1795794695849';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_records" ADD "project_id" character varying(32)`);
    await queryRunner.query(`UPDATE "idempotency_records" r SET "project_id" = k."project_id" FROM "api_keys" k WHERE k."id" = r."scope"`);
    await queryRunner.query(`CREATE INDEX "ix_idempotency_records_project" ON "idempotency_records"  ("project_id") `);
    await queryRunner.query(
      `ALTER TABLE "idempotency_records" ADD CONSTRAINT "fk_idempotency_records_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_records" DROP CONSTRAINT "fk_idempotency_records_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_idempotency_records_project"`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" DROP COLUMN "project_id"`);
  }
}
