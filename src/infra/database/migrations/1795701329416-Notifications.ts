import { MigrationInterface, QueryRunner } from 'typeorm';

export class Notifications1795701329416 implements MigrationInterface {
  name = 'Notifications1795701329416';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "bell_users" ("project_id" character varying(32) NOT NULL, "user_id" character varying(256) NOT NULL, "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_129ff293acf60b87b3bbf05e193" PRIMARY KEY ("project_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_bell_users_last_seen" ON "bell_users"  ("project_id", "last_seen_at") `);
    await queryRunner.query(
      `CREATE TABLE "notifications" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "kind" character varying(16) NOT NULL, "user_id" character varying(256), "title" character varying(200) NOT NULL, "body" character varying(2000) NOT NULL, "action_url" character varying(2048), "icon" character varying(8) NOT NULL, "category" character varying(64), "actions" jsonb NOT NULL DEFAULT '[]', "data" jsonb, "reactions" jsonb, "pinned" boolean NOT NULL DEFAULT false, "status" character varying(16) NOT NULL, "visible_at" TIMESTAMP WITH TIME ZONE NOT NULL, "recipient_count" integer NOT NULL DEFAULT '0', "usage_month" character(7), "changelog_entry_id" character varying(32), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6a72c3c0f683f6462415e653c3a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_notifications_changelog_entry" ON "notifications"  ("changelog_entry_id") WHERE changelog_entry_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notifications_broadcasts" ON "notifications"  ("project_id", "visible_at", "id") WHERE kind = 'broadcast'`,
    );
    await queryRunner.query(`CREATE INDEX "ix_notifications_project_id" ON "notifications"  ("project_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "notification_receipts" ("notification_id" character varying(32) NOT NULL, "user_id" character varying(256) NOT NULL, "project_id" character varying(32) NOT NULL, "read_at" TIMESTAMP WITH TIME ZONE, "clicked_at" TIMESTAMP WITH TIME ZONE, "archived_at" TIMESTAMP WITH TIME ZONE, "reaction" character varying(16), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_a0323b2e2f746fa4a6d1782368a" PRIMARY KEY ("notification_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_notification_receipts_user" ON "notification_receipts"  ("project_id", "user_id") `);
    await queryRunner.query(
      `CREATE TABLE "notification_recipients" ("notification_id" character varying(32) NOT NULL, "user_id" character varying(256) NOT NULL, "project_id" character varying(32) NOT NULL, "visible_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_dc5211d456f98a47de5e069f477" PRIMARY KEY ("notification_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_notification_recipients_user" ON "notification_recipients"  ("project_id", "user_id", "visible_at", "notification_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_releases" ("status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "notification_id" character varying(32) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_fcbf17d35ab17d3c20f1a10e102" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_notification_releases_notification" ON "notification_releases"  ("notification_id") `);
    await queryRunner.query(`CREATE INDEX "ix_notification_releases_due" ON "notification_releases"  ("status", "next_attempt_at") `);
    await queryRunner.query(
      `CREATE TABLE "notification_signing_secrets" ("project_id" character varying(32) NOT NULL, "secret_ciphertext" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "previous_ciphertext" text, "previous_valid_until" TIMESTAMP WITH TIME ZONE, "rotated_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a79f22726328224c9badc5806e9" PRIMARY KEY ("project_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "notification_usage" ("project_id" character varying(32) NOT NULL, "month" character(7) NOT NULL, "sent" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_aa780a5e9068213092c54ed5f20" PRIMARY KEY ("project_id", "month"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "bell_users" ADD CONSTRAINT "fk_bell_users_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifications" ADD CONSTRAINT "fk_notifications_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_receipts" ADD CONSTRAINT "fk_notification_receipts_notification" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_recipients" ADD CONSTRAINT "fk_notification_recipients_notification" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_releases" ADD CONSTRAINT "fk_notification_releases_notification" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_signing_secrets" ADD CONSTRAINT "fk_notification_signing_secrets_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_usage" ADD CONSTRAINT "fk_notification_usage_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_usage" DROP CONSTRAINT "fk_notification_usage_project"`);
    await queryRunner.query(`ALTER TABLE "notification_signing_secrets" DROP CONSTRAINT "fk_notification_signing_secrets_project"`);
    await queryRunner.query(`ALTER TABLE "notification_releases" DROP CONSTRAINT "fk_notification_releases_notification"`);
    await queryRunner.query(`ALTER TABLE "notification_recipients" DROP CONSTRAINT "fk_notification_recipients_notification"`);
    await queryRunner.query(`ALTER TABLE "notification_receipts" DROP CONSTRAINT "fk_notification_receipts_notification"`);
    await queryRunner.query(`ALTER TABLE "notifications" DROP CONSTRAINT "fk_notifications_project"`);
    await queryRunner.query(`ALTER TABLE "bell_users" DROP CONSTRAINT "fk_bell_users_project"`);
    await queryRunner.query(`DROP TABLE "notification_usage"`);
    await queryRunner.query(`DROP TABLE "notification_signing_secrets"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_releases_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_releases_notification"`);
    await queryRunner.query(`DROP TABLE "notification_releases"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_recipients_user"`);
    await queryRunner.query(`DROP TABLE "notification_recipients"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notification_receipts_user"`);
    await queryRunner.query(`DROP TABLE "notification_receipts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notifications_project_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_notifications_broadcasts"`);
    await queryRunner.query(`DROP INDEX "public"."uq_notifications_changelog_entry"`);
    await queryRunner.query(`DROP TABLE "notifications"`);
    await queryRunner.query(`DROP INDEX "public"."ix_bell_users_last_seen"`);
    await queryRunner.query(`DROP TABLE "bell_users"`);
  }
}
