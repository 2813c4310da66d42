import { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795703955013 implements MigrationInterface {
  name = 'Webhooks1795703955013';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "url_ciphertext" text NOT NULL, "url_masked" character varying(300) NOT NULL, "events" jsonb NOT NULL, "format" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "disabled_reason" text, "disabled_at" TIMESTAMP WITH TIME ZONE, "consecutive_failures" integer NOT NULL DEFAULT '0', "secret_ciphertext" text NOT NULL, "previous_secret_ciphertext" text, "previous_secret_valid_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_054c4cfb95223732f5939d2d546" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_endpoints_project_id" ON "webhook_endpoints"  ("project_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "endpoint_id" character varying(32) NOT NULL, "event_id" character varying(32) NOT NULL, "event_type" character varying(64) NOT NULL, "response_status" smallint, "response_excerpt" character varying(500), "duration_ms" integer, "last_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_event" ON "webhook_deliveries"  ("event_id") `);
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_endpoint" ON "webhook_deliveries"  ("endpoint_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries"  ("status", "next_attempt_at") `);
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "fk_webhook_endpoints_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "fk_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "fk_webhook_deliveries_event" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "fk_webhook_deliveries_event"`);
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "fk_webhook_deliveries_endpoint"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "fk_webhook_endpoints_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_endpoint"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_deliveries_event"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_endpoints_project_id"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
