/**
 * The work each benchmarked route does, written once for both baselines (bare NestJS and raw
 * node:http): the same SQL statements in the same order as the service, through plain `pg`, and the
 * same pure functions from dist/ (ids, classifier, email bodies). So a baseline differs from the
 * service only in what the service adds around that work: the framework pipeline, the ORM, auth,
 * validation, logging. Keep it in step with the service when a route's SQL changes
 * (`BENCH_LOG_SQL=1 npm run bench` prints what each route sent).
 */
const { createHash } = require('node:crypto');
const { Pool } = require('pg');

const dist = (path) => require(`../dist/${path}`);

const KEY_CACHE_TTL_MS = 5_000;

class BaselineWork {
  constructor({ databaseUrl, poolSize }) {
    this.pool = new Pool({ connectionString: databaseUrl, max: poolSize });
    this.keys = new Map();
    const plans = dist('projects/plans');
    this.plans = plans;
  }

  /** API key → project, cached like the service's key cache (5 s). */
  async authenticate(authorization, needsSecret) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) return null;
    const hash = createHash('sha256').update(token, 'utf8').digest('hex');
    const now = Date.now();
    let entry = this.keys.get(hash);
    if (!entry || entry.expiresAt <= now) {
      const keys = await this.pool.query('SELECT id, project_id, type, revoked_at FROM api_keys WHERE secret_hash = $1 LIMIT 1', [hash]);
      const key = keys.rows[0];
      const projects = key ? await this.pool.query('SELECT * FROM projects WHERE id = $1 LIMIT 1', [key.project_id]) : { rows: [] };
      entry = { value: key && projects.rows[0] ? { key, project: projects.rows[0] } : null, expiresAt: now + KEY_CACHE_TTL_MS };
      this.keys.set(hash, entry);
    }
    const found = entry.value;
    if (!found || found.key.revoked_at) return null;
    if (needsSecret && found.key.type !== 'secret') return null;
    return found.project;
  }

  setupCheck(project, publicBaseUrl) {
    const { PLANS, FEATURES, planAllows, planLimit } = this.plans;
    const plan = project.plan;
    return {
      project_id: project.id,
      project_slug: project.slug,
      project_name: project.name,
      plan,
      features_enabled: {
        changelog: planAllows(plan, 'changelog'),
        waitlist: planAllows(plan, 'waitlist'),
        feedback: planAllows(plan, 'feedback'),
        notifications: planAllows(plan, 'notifications'),
        email_notifications: planAllows(plan, 'email_notifications'),
        custom_domain: planAllows(plan, 'custom_domain'),
      },
      limits: { changelog_entries_remaining: planLimit(plan, 'changelogPublishedEntries'), subscribers_max: planLimit(plan, 'subscribers') },
      plan_details: {
        description: PLANS[plan].description,
        locked_features: FEATURES.filter((feature) => !planAllows(plan, feature)),
        upgrade_url: null,
        changelog_public_url: `${publicBaseUrl}/changelog/${project.slug}`,
      },
    };
  }

  async waitlistStats(project) {
    const totals = (
      await this.pool.query(
        `SELECT COUNT(*) AS total, COUNT(confirmed_at) AS confirmed, COUNT(invited_at) AS invited,
                COUNT(referred_by_signup_id) AS referred
           FROM waitlist_signups WHERE project_id = $1`,
        [project.id],
      )
    ).rows[0];
    const top = await this.pool.query(
      `SELECT id, email, referral_count FROM waitlist_signups
        WHERE project_id = $1 AND referral_count > 0 ORDER BY referral_count DESC, position ASC LIMIT 10`,
      [project.id],
    );
    const total = Number(totals.total);
    const referred = Number(totals.referred);
    return {
      total_signups: total,
      confirmed_count: Number(totals.confirmed),
      invited_count: Number(totals.invited),
      via_referral_count: referred,
      referral_conversion_rate: total === 0 ? 0 : Math.round((referred / total) * 10_000) / 10_000,
      top_referrers: top.rows.map((row) => ({ signup_id: row.id, email: row.email, referral_count: row.referral_count })),
    };
  }

  async close() {
    await this.pool.end();
  }
}

module.exports = { BaselineWork };
