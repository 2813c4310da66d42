import { MigrationInterface, QueryRunner } from 'typeorm';

export class Billing1795708867469 implements MigrationInterface {
  name = 'Billing1795708867469';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "billing_accounts" ("project_id" character varying(32) NOT NULL, "customer_id" character varying(255) NOT NULL, "subscription_id" character varying(255), "subscription_status" character varying(32), "last_event_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_f9111966c405f8669479a94631a" PRIMARY KEY ("project_id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_billing_accounts_customer_id" ON "billing_accounts"  ("customer_id") `);
    await queryRunner.query(
      `CREATE TABLE "billing_events" ("id" character varying(255) NOT NULL, "type" character varying(100) NOT NULL, "project_id" character varying(32), "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "outcome" character varying(16) NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9a4a4a1b1f55bbc868f6a76a597" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "billing_accounts" ADD CONSTRAINT "fk_billing_accounts_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "billing_accounts" DROP CONSTRAINT "fk_billing_accounts_project"`);
    await queryRunner.query(`DROP TABLE "billing_events"`);
    await queryRunner.query(`DROP INDEX "public"."uq_billing_accounts_customer_id"`);
    await queryRunner.query(`DROP TABLE "billing_accounts"`);
  }
}
