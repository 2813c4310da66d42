import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention's index on notifications.visible_at, and the end of changelog_bell_requests: a published
 * entry now writes its bell broadcast directly (notifications.changelog_entry_id, unique). TypeORM
 * does not generate drops of tables without an entity, so that part is written by hand.
 */
export class NotificationIdentityRetention1795701627953 implements MigrationInterface {
  name = 'NotificationIdentityRetention1795701627953';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "ix_notifications_visible_at" ON "notifications"  ("visible_at") `);
    await queryRunner.query(`DROP TABLE "changelog_bell_requests"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "changelog_bell_requests" ("entry_id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "title" character varying(200) NOT NULL, "url" character varying(2048), "audience" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "broadcast_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_8e5381aebba01b2c0f58d71671e" PRIMARY KEY ("entry_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_changelog_bell_requests_pending" ON "changelog_bell_requests"  ("created_at") WHERE broadcast_at IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_bell_requests" ADD CONSTRAINT "fk_changelog_bell_requests_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_bell_requests" ADD CONSTRAINT "fk_changelog_bell_requests_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_notifications_visible_at"`);
  }
}
