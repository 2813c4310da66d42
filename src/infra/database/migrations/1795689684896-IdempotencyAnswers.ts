import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency records are written with their effect, so no row is ever "in progress": claims left
 * by the earlier design are dropped (their requests either committed without a recorded answer or
 * never ran). Bodies become text so replays are byte-identical; older bodies keep jsonb's rendering.
 */
export class IdempotencyAnswers1795689684896 implements MigrationInterface {
  name = 'IdempotencyAnswers1795689684896';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "idempotency_records" WHERE "state" <> 'completed' OR "response_status" IS NULL`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" DROP COLUMN "state"`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "response_status" SET NOT NULL`);
    await queryRunner.query(`UPDATE "idempotency_records" SET "response_headers" = '{}' WHERE "response_headers" IS NULL`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "response_headers" SET NOT NULL`);
    // Replays now write the stored text as it is: older records name their type explicitly.
    await queryRunner.query(
      `UPDATE "idempotency_records" SET "response_headers" = "response_headers" || '{"Content-Type": "application/json; charset=utf-8"}'::jsonb
        WHERE NOT "response_headers" ? 'Content-Type'`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_records" ALTER COLUMN "response_body" TYPE text USING COALESCE("response_body"::text, 'null')`,
    );
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "response_body" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "response_body" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "response_body" TYPE jsonb USING "response_body"::jsonb`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "response_headers" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "response_status" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" ADD "state" character varying(16) NOT NULL DEFAULT 'completed'`);
    await queryRunner.query(`ALTER TABLE "idempotency_records" ALTER COLUMN "state" DROP DEFAULT`);
  }
}
