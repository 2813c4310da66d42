import { MigrationInterface, QueryRunner } from 'typeorm';

export class EmailTemplates1795711033476 implements MigrationInterface {
  name = 'EmailTemplates1795711033476';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "email_templates" ("project_id" character varying(32) NOT NULL, "name" character varying(64) NOT NULL, "subject" character varying(200) NOT NULL, "body" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_0832ff038d1b223dc2e9586b418" PRIMARY KEY ("project_id", "name"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "email_templates" ADD CONSTRAINT "fk_email_templates_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "email_templates" DROP CONSTRAINT "fk_email_templates_project"`);
    await queryRunner.query(`DROP TABLE "email_templates"`);
  }
}
