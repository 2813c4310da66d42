import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveryAttempts1795820944326 implements MigrationInterface {
  name = 'DeliveryAttempts1795820944326';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_delivery_attempts" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "delivery_id" character varying(32) NOT NULL, "attempt" integer NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "response_status" smallint, "error" character varying(1000), "duration_ms" integer NOT NULL, "response_excerpt" character varying(500), CONSTRAINT "PK_59ef9124585b56c18b98548a0c6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_webhook_delivery_attempts_delivery" ON "webhook_delivery_attempts"  ("delivery_id", "attempted_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "fk_webhook_delivery_attempts_delivery" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "fk_webhook_delivery_attempts_delivery"`);
    await queryRunner.query(`DROP INDEX "public"."ix_webhook_delivery_attempts_delivery"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery_attempts"`);
  }
}
