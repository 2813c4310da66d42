import { MigrationInterface, QueryRunner } from 'typeorm';

export class Waitlist1795646984841 implements MigrationInterface {
  name = 'Waitlist1795646984841';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "waitlist_counters" ("project_id" character varying(32) NOT NULL, "last_position" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_7eba620627c78fbbc1ca11c020b" PRIMARY KEY ("project_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "waitlist_signups" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "email" character varying(254) NOT NULL, "position" integer NOT NULL, "referral_code" character varying(8) NOT NULL, "referred_by_signup_id" character varying(32), "referral_count" integer NOT NULL DEFAULT '0', "status" character varying(16) NOT NULL, "channel" character varying(16) NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "invited_at" TIMESTAMP WITH TIME ZONE, "unsubscribed_at" TIMESTAMP WITH TIME ZONE, "last_confirmation_sent_at" TIMESTAMP WITH TIME ZONE, "metadata" jsonb NOT NULL DEFAULT '{}', "source" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_2c25d8edf518162f06c849c5fb3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_waitlist_signups_referred_by" ON "waitlist_signups"  ("referred_by_signup_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_waitlist_signups_project_referral_count" ON "waitlist_signups"  ("project_id", "referral_count") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_waitlist_signups_project_status_position" ON "waitlist_signups"  ("project_id", "status", "position") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_waitlist_signups_project_referral_code" ON "waitlist_signups"  ("project_id", "referral_code") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_waitlist_signups_project_position" ON "waitlist_signups"  ("project_id", "position") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_waitlist_signups_project_email" ON "waitlist_signups"  ("project_id", "email") `);
    await queryRunner.query(
      `CREATE TABLE "waitlist_email_tokens" ("token_hash" character(64) NOT NULL, "project_id" character varying(32) NOT NULL, "signup_id" character varying(32) NOT NULL, "purpose" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_00026438953d029b292a06bb3f9" PRIMARY KEY ("token_hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_waitlist_email_tokens_signup" ON "waitlist_email_tokens"  ("signup_id") `);
    await queryRunner.query(
      `ALTER TABLE "waitlist_counters" ADD CONSTRAINT "fk_waitlist_counters_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waitlist_signups" ADD CONSTRAINT "fk_waitlist_signups_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waitlist_signups" ADD CONSTRAINT "fk_waitlist_signups_referred_by" FOREIGN KEY ("referred_by_signup_id") REFERENCES "waitlist_signups"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waitlist_email_tokens" ADD CONSTRAINT "fk_waitlist_email_tokens_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waitlist_email_tokens" ADD CONSTRAINT "fk_waitlist_email_tokens_signup" FOREIGN KEY ("signup_id") REFERENCES "waitlist_signups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "waitlist_email_tokens" DROP CONSTRAINT "fk_waitlist_email_tokens_signup"`);
    await queryRunner.query(`ALTER TABLE "waitlist_email_tokens" DROP CONSTRAINT "fk_waitlist_email_tokens_project"`);
    await queryRunner.query(`ALTER TABLE "waitlist_signups" DROP CONSTRAINT "fk_waitlist_signups_referred_by"`);
    await queryRunner.query(`ALTER TABLE "waitlist_signups" DROP CONSTRAINT "fk_waitlist_signups_project"`);
    await queryRunner.query(`ALTER TABLE "waitlist_counters" DROP CONSTRAINT "fk_waitlist_counters_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_waitlist_email_tokens_signup"`);
    await queryRunner.query(`DROP TABLE "waitlist_email_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."uq_waitlist_signups_project_email"`);
    await queryRunner.query(`DROP INDEX "public"."uq_waitlist_signups_project_position"`);
    await queryRunner.query(`DROP INDEX "public"."uq_waitlist_signups_project_referral_code"`);
    await queryRunner.query(`DROP INDEX "public"."ix_waitlist_signups_project_status_position"`);
    await queryRunner.query(`DROP INDEX "public"."ix_waitlist_signups_project_referral_count"`);
    await queryRunner.query(`DROP INDEX "public"."ix_waitlist_signups_referred_by"`);
    await queryRunner.query(`DROP TABLE "waitlist_signups"`);
    await queryRunner.query(`DROP TABLE "waitlist_counters"`);
  }
}
