import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795646006675 implements MigrationInterface {
  name = 'Foundation1795646006675';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "accounts" ("id" character varying(32) NOT NULL, "subject" character varying(255) NOT NULL, "email" character varying(254), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5a7a02c20412299d198e097a8fe" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_accounts_subject" ON "accounts"  ("subject") `);
    await queryRunner.query(
      `CREATE TABLE "projects" ("id" character varying(32) NOT NULL, "account_id" character varying(32), "slug" character varying(40) NOT NULL, "name" character varying(100) NOT NULL, "plan" character varying(16) NOT NULL, "settings" jsonb NOT NULL DEFAULT '{}'::jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6271df0a7aed1d6c0691ce6ac50" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_projects_account_id" ON "projects"  ("account_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_projects_slug" ON "projects"  ("slug") `);
    await queryRunner.query(
      `CREATE TABLE "contacts" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "email" character varying(254), "user_id" character varying(256), "stage" character varying(16) NOT NULL, "consents" jsonb NOT NULL DEFAULT '{}'::jsonb, "details" jsonb NOT NULL DEFAULT '{}'::jsonb, "paying" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_b99cd40cfd66a99f1571f4f72e6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_contacts_project_stage" ON "contacts"  ("project_id", "stage", "id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_contacts_project_user_id" ON "contacts"  ("project_id", "user_id") WHERE user_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_contacts_project_email" ON "contacts"  ("project_id", "email") WHERE email IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "type" character varying(16) NOT NULL, "mode" character varying(8) NOT NULL, "prefix" character varying(20) NOT NULL, "last_four" character varying(4) NOT NULL, "secret_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_api_keys_secret_hash" ON "api_keys"  ("secret_hash") `);
    await queryRunner.query(`CREATE INDEX "ix_api_keys_project_type" ON "api_keys"  ("project_id", "type") `);
    await queryRunner.query(
      `CREATE TABLE "mail_messages" ("id" character varying(32) NOT NULL, "project_id" character varying(32), "kind" character varying(64) NOT NULL, "recipient" character varying(254) NOT NULL, "subject" character varying(255) NOT NULL, "text_body" text NOT NULL, "html_body" text, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "sent_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1bd6e76ef3b3d4aff7d0510a509" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_mail_messages_project" ON "mail_messages"  ("project_id") `);
    await queryRunner.query(`CREATE INDEX "ix_mail_messages_due" ON "mail_messages"  ("status", "next_attempt_at") `);
    await queryRunner.query(
      `CREATE TABLE "events" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "type" character varying(64) NOT NULL, "data" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_40731c7151fe4be3116e45ddf73" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_events_project_created" ON "events"  ("project_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "idempotency_records" ("scope" character varying(40) NOT NULL, "key" character varying(80) NOT NULL, "request_hash" character(64) NOT NULL, "state" character varying(16) NOT NULL, "response_status" integer, "response_headers" jsonb, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_9c03b6adebf385ca991d085063a" PRIMARY KEY ("scope", "key"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_idempotency_records_expires_at" ON "idempotency_records"  ("expires_at") `);
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "fk_projects_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "contacts" ADD CONSTRAINT "fk_contacts_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "fk_api_keys_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "mail_messages" ADD CONSTRAINT "fk_mail_messages_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "events" ADD CONSTRAINT "fk_events_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "events" DROP CONSTRAINT "fk_events_project"`);
    await queryRunner.query(`ALTER TABLE "mail_messages" DROP CONSTRAINT "fk_mail_messages_project"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "fk_api_keys_project"`);
    await queryRunner.query(`ALTER TABLE "contacts" DROP CONSTRAINT "fk_contacts_project"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "fk_projects_account"`);
    await queryRunner.query(`DROP INDEX "public"."ix_idempotency_records_expires_at"`);
    await queryRunner.query(`DROP TABLE "idempotency_records"`);
    await queryRunner.query(`DROP INDEX "public"."ix_events_project_created"`);
    await queryRunner.query(`DROP TABLE "events"`);
    await queryRunner.query(`DROP INDEX "public"."ix_mail_messages_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_mail_messages_project"`);
    await queryRunner.query(`DROP TABLE "mail_messages"`);
    await queryRunner.query(`DROP INDEX "public"."ix_api_keys_project_type"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_keys_secret_hash"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."uq_contacts_project_email"`);
    await queryRunner.query(`DROP INDEX "public"."uq_contacts_project_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contacts_project_stage"`);
    await queryRunner.query(`DROP TABLE "contacts"`);
    await queryRunner.query(`DROP INDEX "public"."uq_projects_slug"`);
    await queryRunner.query(`DROP INDEX "public"."ix_projects_account_id"`);
    await queryRunner.query(`DROP TABLE "projects"`);
    await queryRunner.query(`DROP INDEX "public"."uq_accounts_subject"`);
    await queryRunner.query(`DROP TABLE "accounts"`);
  }
}
