import { MigrationInterface, QueryRunner } from 'typeorm';

export class Feedback1795646606404 implements MigrationInterface {
  name = 'Feedback1795646606404';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "feedback" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "feedback_text" text NOT NULL, "classification" character varying(16) NOT NULL, "confidence" real NOT NULL, "summary" character varying(140) NOT NULL, "user_id" character varying(256), "email" character varying(254), "page_url" character varying(2048), "rating" smallint, "category_hint" character varying(16), "changelog_entry_id" character varying(32), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8389f9e087a57689cd5be8b2b13" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_feedback_project_changelog_entry" ON "feedback"  ("project_id", "changelog_entry_id", "id") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_feedback_project_user_id" ON "feedback"  ("project_id", "user_id", "id") `);
    await queryRunner.query(`CREATE INDEX "ix_feedback_project_classification" ON "feedback"  ("project_id", "classification", "id") `);
    await queryRunner.query(`CREATE INDEX "ix_feedback_project_id" ON "feedback"  ("project_id", "id") `);
    await queryRunner.query(
      `ALTER TABLE "feedback" ADD CONSTRAINT "fk_feedback_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "feedback" DROP CONSTRAINT "fk_feedback_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_feedback_project_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_feedback_project_classification"`);
    await queryRunner.query(`DROP INDEX "public"."ix_feedback_project_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_feedback_project_changelog_entry"`);
    await queryRunner.query(`DROP TABLE "feedback"`);
  }
}
