import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomDomains1795710057843 implements MigrationInterface {
  name = 'CustomDomains1795710057843';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "custom_domains" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "hostname" character varying(253) NOT NULL, "verification_token" character varying(64) NOT NULL, "verified_at" TIMESTAMP WITH TIME ZONE, "last_checked_at" TIMESTAMP WITH TIME ZONE, "last_check_error" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_53c30715082abb90e5063a2a397" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_custom_domains_hostname" ON "custom_domains"  ("hostname") `);
    await queryRunner.query(`CREATE INDEX "ix_custom_domains_project_id" ON "custom_domains"  ("project_id", "id") `);
    await queryRunner.query(
      `ALTER TABLE "custom_domains" ADD CONSTRAINT "fk_custom_domains_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "custom_domains" DROP CONSTRAINT "fk_custom_domains_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_custom_domains_project_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_custom_domains_hostname"`);
    await queryRunner.query(`DROP TABLE "custom_domains"`);
  }
}
