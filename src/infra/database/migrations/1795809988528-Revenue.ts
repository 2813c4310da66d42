import { MigrationInterface, QueryRunner } from 'typeorm';

export class Revenue1795809988528 implements MigrationInterface {
  name = 'Revenue1795809988528';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "revenue_connections" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "account_id" character varying(32), "provider" character varying(16) NOT NULL, "key_ciphertext" text NOT NULL, "key_last_four" character varying(4) NOT NULL, "key_mode" character varying(8) NOT NULL, "permissions" jsonb NOT NULL, "connected_at" TIMESTAMP WITH TIME ZONE NOT NULL, "events_since" bigint, "last_synced_at" TIMESTAMP WITH TIME ZONE, "last_full_sync_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_c700a1a699e6258413d01a261b9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_revenue_connections_account" ON "revenue_connections"  ("account_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_revenue_connections_project" ON "revenue_connections"  ("project_id") `);
    await queryRunner.query(
      `CREATE TABLE "revenue_customers" ("project_id" character varying(32) NOT NULL, "customer_id" character varying(255) NOT NULL, "email" character varying(254), "user_id" character varying(256), "contact_id" character varying(32), "deleted" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "synced_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_69689ffd6fd2eace04a19023ea9" PRIMARY KEY ("project_id", "customer_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_revenue_customers_contact" ON "revenue_customers"  ("project_id", "contact_id") `);
    await queryRunner.query(
      `CREATE TABLE "revenue_customer_mrr" ("project_id" character varying(32) NOT NULL, "customer_id" character varying(255) NOT NULL, "currency" character varying(3) NOT NULL, "mrr" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1e027b18fd86af4188787426ffb" PRIMARY KEY ("project_id", "customer_id", "currency"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "revenue_movements" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "customer_id" character varying(255) NOT NULL, "currency" character varying(3) NOT NULL, "kind" character varying(16) NOT NULL, "from_mrr" bigint NOT NULL, "to_mrr" bigint NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_3f7a37f17875f3551cc7c486304" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_revenue_movements_project_at" ON "revenue_movements"  ("project_id", "occurred_at") `);
    await queryRunner.query(
      `CREATE TABLE "revenue_invoices" ("project_id" character varying(32) NOT NULL, "invoice_id" character varying(255) NOT NULL, "customer_id" character varying(255) NOT NULL, "status" character varying(16) NOT NULL, "currency" character varying(3) NOT NULL, "amount_paid" bigint NOT NULL, "paid_at" TIMESTAMP WITH TIME ZONE, "synced_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6699cb70ef883b7de4ec14d9fc3" PRIMARY KEY ("project_id", "invoice_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_revenue_invoices_customer_paid" ON "revenue_invoices"  ("project_id", "customer_id", "paid_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "revenue_subscriptions" ("project_id" character varying(32) NOT NULL, "subscription_id" character varying(255) NOT NULL, "customer_id" character varying(255) NOT NULL, "status" character varying(32) NOT NULL, "terms" jsonb NOT NULL, "synced_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e1755599c7ae6ef1eaa2745177f" PRIMARY KEY ("project_id", "subscription_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_revenue_subscriptions_customer" ON "revenue_subscriptions"  ("project_id", "customer_id") `);
    await queryRunner.query(
      `CREATE TABLE "revenue_syncs" ("status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "connection_id" character varying(32) NOT NULL, "kind" character varying(16) NOT NULL, "phase" character varying(16) NOT NULL, "starting_after" character varying(255), "progress" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_9a55a23fcb98da227b7554904e1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_revenue_syncs_connection" ON "revenue_syncs"  ("connection_id", "id") `);
    await queryRunner.query(`CREATE INDEX "ix_revenue_syncs_due" ON "revenue_syncs"  ("status", "next_attempt_at") `);
    await queryRunner.query(
      `ALTER TABLE "revenue_connections" ADD CONSTRAINT "fk_revenue_connections_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revenue_customers" ADD CONSTRAINT "fk_revenue_customers_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revenue_customer_mrr" ADD CONSTRAINT "fk_revenue_customer_mrr_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revenue_movements" ADD CONSTRAINT "fk_revenue_movements_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revenue_invoices" ADD CONSTRAINT "fk_revenue_invoices_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revenue_subscriptions" ADD CONSTRAINT "fk_revenue_subscriptions_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revenue_syncs" ADD CONSTRAINT "fk_revenue_syncs_connection" FOREIGN KEY ("connection_id") REFERENCES "revenue_connections"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "revenue_syncs" DROP CONSTRAINT "fk_revenue_syncs_connection"`);
    await queryRunner.query(`ALTER TABLE "revenue_subscriptions" DROP CONSTRAINT "fk_revenue_subscriptions_project"`);
    await queryRunner.query(`ALTER TABLE "revenue_invoices" DROP CONSTRAINT "fk_revenue_invoices_project"`);
    await queryRunner.query(`ALTER TABLE "revenue_movements" DROP CONSTRAINT "fk_revenue_movements_project"`);
    await queryRunner.query(`ALTER TABLE "revenue_customer_mrr" DROP CONSTRAINT "fk_revenue_customer_mrr_project"`);
    await queryRunner.query(`ALTER TABLE "revenue_customers" DROP CONSTRAINT "fk_revenue_customers_project"`);
    await queryRunner.query(`ALTER TABLE "revenue_connections" DROP CONSTRAINT "fk_revenue_connections_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revenue_syncs_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revenue_syncs_connection"`);
    await queryRunner.query(`DROP TABLE "revenue_syncs"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revenue_subscriptions_customer"`);
    await queryRunner.query(`DROP TABLE "revenue_subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revenue_invoices_customer_paid"`);
    await queryRunner.query(`DROP TABLE "revenue_invoices"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revenue_movements_project_at"`);
    await queryRunner.query(`DROP TABLE "revenue_movements"`);
    await queryRunner.query(`DROP TABLE "revenue_customer_mrr"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revenue_customers_contact"`);
    await queryRunner.query(`DROP TABLE "revenue_customers"`);
    await queryRunner.query(`DROP INDEX "public"."uq_revenue_connections_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revenue_connections_account"`);
    await queryRunner.query(`DROP TABLE "revenue_connections"`);
  }
}
