/**
 * The work each benchmarked route does, written once for both baselines (bare NestJS and raw
 * node:http): the same SQL statements in the same order as the service, through plain `pg`, and the
 * same pure functions from dist/ (ids, classifier, email bodies). So a baseline differs from the
 * service only in what the service adds around that work: the framework pipeline, the ORM, auth,
 * validation, logging. The SQL is the service's own: its query helpers run here on a plain pg client.
 * Keep the order of calls in step with the services when a route changes.
 */
const { createHash } = require('node:crypto');
const { Queue } = require('bullmq');
const Redis = require('ioredis');
const { Pool } = require('pg');

// A name the service no longer exports fails at start, not as a 500 in the middle of a run.
const dist = (path) =>
  new Proxy(require(`../dist/${path}`), {
    get(module, name) {
      if (!(name in module)) throw new Error(`dist/${path} exports no ${String(name)}: update bench/baseline-work.js`);
      return module[name];
    },
  });

// The service's own SQL helpers and pure functions, loaded once.
const { waitlistTotals, insertAtNextPosition, creditReferrer } = dist('waitlist/waitlist.queries');
const { toWaitlistStatsDto } = dist('waitlist/dto/waitlist-stats.dto');
const { signupDraft, placeSignup, compactSource } = dist('waitlist/signup-row');
const { issueConfirmationTokens, confirmUrl, unsubscribeUrl } = dist('waitlist/email-tokens');
const { signupCreatedData } = dist('waitlist/signup-event');
const { confirmationEmail } = dist('waitlist/waitlist-emails');
const { readTemplateText } = dist('email-templates/email-templates.queries');
const { oneClickUnsubscribe } = dist('common/email-links/link-tokens');
const { referralLink, normalizeReferralCode } = dist('waitlist/referral');
const { toSignupResultDto } = dist('waitlist/dto/signup-result.dto');
const { classifyFeedback } = dist('feedback/classifier/classify-feedback');
const { insertFeedback } = dist('feedback/feedback.queries');
const { feedbackCreatedData } = dist('feedback/feedback-event');
const { toFeedbackDto } = dist('feedback/dto/feedback.dto');
const { newId } = dist('common/ids/ids');
const { insertMail } = dist('infra/mail/mail.queries');
const { newMailRow } = dist('infra/mail/mail.service');
const { setupCheckOf } = dist('projects/setup-check.service');
const { toSuccessEnvelope } = dist('common/http/envelope');

const { readPublicChangelog } = dist('changelog/public/public-changelog.queries');
const { toPublicChangelogEntryDto } = dist('changelog/public/dto/public-changelog-entry.dto');
const { publicLinks } = dist('changelog/public/public-links');
const { renderFeed, FEED_FORMATS } = dist('changelog/public/changelog-feeds');
/** The baselines' names of the feeds, by the service's format names. */
const FEED_KINDS = { rss: 'rss', atom: 'atom', 'json-feed': 'json' };
const { changelogListPage } = dist('changelog/public/changelog-pages');
const { cacheableReply } = dist('changelog/public/cacheable-reply');
const { isValidSlug } = dist('projects/slugs');

const { countUnread, listBell, readBellState, recordBellUser } = dist('notifications/bell/bell.queries');
const { matchingSecret } = dist('auth/user-hash');
const { SecretBox } = dist('common/crypto/secret-box');
const { hourWindow } = dist('notifications/bell/bell-reads-limit.service');
const { toBellNotificationDto } = dist('notifications/bell/dto/bell-notification.dto');

const { readWidgetPage, readUnseenIds } = dist('changelog/widget/widget.queries');
const { toWidgetEntryDto, toWidgetAnnouncementDto } = dist('changelog/widget/dto/widget-mappers');
const { RenderedBodies } = dist('changelog/widget/rendered-bodies');
const { WIDGET_DEFAULT_LIMIT } = dist('changelog/widget/dto/widget-input.dto');
const { UNSEEN_WINDOW_DAYS } = dist('changelog/widget/widget.service');
const { entryPublicUrl } = dist('changelog/shared/changelog-links');
const { encodeCursor, publishedCursorValue } = dist('common/http/cursor');

const { planAllows, planLimit } = dist('projects/plans');
const { RedisWindowCounters, POLL_COUNTER_LEASE } = dist('infra/rate-limit/redis-window-counters');
const { ContactsService } = dist('contacts/contacts.service');
const { OutboxService } = dist('events/outbox.service');
const { DeliveryPlanner } = dist('webhooks/delivery/delivery-planner.service');
const { findKeyWithProject } = dist('auth/api-keys.queries');
const { enabledEndpointExists } = dist('webhooks/endpoints/endpoints.queries');

const KEY_CACHE_TTL_MS = 5_000;
const DAY_MS = 86_400_000;
// WidgetService's page key (not exported): only the next_cursor of a page with more entries uses it.
const PAGE_KEY = { field: 'published', prefix: 'ce' };
const clock = { now: () => new Date() };

/** The start of the unseen window without `since`, as WidgetService.unseenAfter computes it. */
const unseenAfter = (now) => new Date(now.getTime() - UNSEEN_WINDOW_DAYS * DAY_MS);

/** What TypeORM's `em.query` answers on PostgreSQL, so the service's SQL helpers run unchanged on a plain client. */
function queryShim(client) {
  return {
    async query(sql, parameters) {
      const result = await client.query(sql, parameters);
      return result.command === 'UPDATE' || result.command === 'DELETE' ? [result.rows, result.rowCount] : result.rows;
    },
  };
}

class BaselineWork {
  constructor({ databaseUrl, poolSize, redisUrl, queuePrefix, browserLimit, encryptionKey }) {
    this.pool = new Pool({ connectionString: databaseUrl, max: poolSize });
    this.keys = new Map();
    this.bodies = new RenderedBodies();
    this.secrets = new Map();
    this.box = encryptionKey.length === 32 ? new SecretBox(encryptionKey) : null;
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // The same counters and job options as the service: browser limit in Redis, mail jobs in BullMQ.
    this.limits = new RedisWindowCounters(this.redis);
    this.browserLimit = browserLimit;
    this.queuePrefix = queuePrefix;
    this.mailQueue = new Queue('mail', { connection: this.redis, prefix: queuePrefix });
    this.contacts = new ContactsService(null, clock);
    this.outbox = new OutboxService(clock);
    // Every recorded event goes to the planner, as in the service: a project whose cached copy says
    // it has no enabled endpoint (every bench project) plans nothing, without a statement.
    new DeliveryPlanner(this.outbox, null, null).onModuleInit();
  }

  /** The per-IP browser limit, counted as the service counts it. */
  async limitBrowser(ip) {
    const rule = { bucket: 'browser', limit: this.browserLimit, windowMs: 60_000, lease: POLL_COUNTER_LEASE };
    const record = await this.limits.increment(`${this.queuePrefix}:rl:browser:${ip}`, rule);
    return record.totalHits <= this.browserLimit;
  }

  /** One transaction on one pooled connection; `after` runs once it committed. */
  async transaction(work) {
    const client = await this.pool.connect();
    const after = [];
    try {
      await client.query('START TRANSACTION');
      const result = await work(queryShim(client), (hook) => after.push(hook));
      await client.query('COMMIT');
      client.release();
      for (const hook of after) await hook();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      throw error;
    }
  }

  enqueueMail(id) {
    return this.mailQueue.add(
      'mail.send',
      { id },
      {
        jobId: `mail.send-${id}`,
        delay: 0,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  }

  /** API key → project, cached like the service's key cache (5 s). */
  async authenticate(authorization, needsSecret) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) return null;
    const hash = createHash('sha256').update(token, 'utf8').digest('hex');
    const now = Date.now();
    let entry = this.keys.get(hash);
    if (!entry || entry.expiresAt <= now) {
      // The service's one statement: the key, its project, and whether the project has an enabled endpoint.
      const value = await findKeyWithProject(queryShim(this.pool), hash, enabledEndpointExists);
      entry = { value, expiresAt: now + KEY_CACHE_TTL_MS };
      this.keys.set(hash, entry);
    }
    const found = entry.value;
    if (!found || found.revoked) return null;
    if (needsSecret && found.type !== 'secret') return null;
    return found.project;
  }

  /**
   * A browser's bell call: the publishable key, the per-IP browser limit, then `user_hash` checked
   * against the project's signing secret (opened once and cached for the key cache's TTL, as the
   * service's reader does). Null when the key or the hash is wrong.
   */
  async authenticateEndUser(authorization, ip, userId, hash) {
    const project = await this.authenticate(authorization, false);
    if (!project || typeof userId !== 'string' || typeof hash !== 'string') return null;
    if (!(await this.limitBrowser(ip))) return null;
    const now = Date.now();
    let entry = this.secrets.get(project.id);
    if (!entry || entry.expiresAt <= now) {
      const rows = await this.pool.query('SELECT secret_ciphertext FROM notification_signing_secrets WHERE project_id = $1', [project.id]);
      entry = { secrets: rows.rows.map((row) => this.box.open(row.secret_ciphertext)), expiresAt: now + KEY_CACHE_TTL_MS };
      this.secrets.set(project.id, entry);
    }
    return matchingSecret(userId, hash, entry.secrets) !== null ? project : null;
  }

  /** GET /v1/setup-check: the same builder; Builder projects have no entry limit, so no SQL. */
  setupCheck(project, publicBaseUrl) {
    return toSuccessEnvelope(
      setupCheckOf({ publicBaseUrl, customDomains: null }, project, planLimit(project.plan, 'changelogPublishedEntries')),
    ).data;
  }

  /** GET /v1/waitlist/stats: StatsService.getStats's one statement. */
  async waitlistStats(project) {
    return toWaitlistStatsDto(await waitlistTotals(queryShim(this.pool), project.id, 10));
  }

  /** POST /v1/waitlist/signups: the statements of SignupsService.insertSignup, in its order. */
  async createSignup(project, input, channel, publicBaseUrl) {
    const email = input.email.trim().toLowerCase();
    return this.transaction(async (em, afterCommit) => {
      const now = clock.now();
      const metadata = input.metadata ?? {};
      const template = await readTemplateText(em, project.id, 'waitlist_confirmation');
      const referrerId = input.referrer_code ? await creditReferrer(em, project.id, normalizeReferralCode(input.referrer_code)) : null;
      await this.contacts.upsertContact(em, project.id, {
        email,
        stage: 'waitlist',
        details: metadata,
        consents: { waitlist_emails: 'granted' },
      });
      const draft = signupDraft(
        project.id,
        { email, channel, metadata, source: compactSource(input.source), referredBySignupId: referrerId },
        now,
      );
      const tokens = issueConfirmationTokens(draft, now);
      const signup = placeSignup(draft, await insertAtNextPosition(em, draft, tokens.rows));
      await this.outbox.record(em, project, 'waitlist.signup.created', signupCreatedData(signup));
      const link = referralLink(publicBaseUrl, project.slug, signup.referralCode);
      const unsubscribe = unsubscribeUrl(publicBaseUrl, tokens.unsubscribe);
      const rendered = confirmationEmail(
        {
          projectName: project.name,
          position: signup.position,
          confirmUrl: confirmUrl(publicBaseUrl, tokens.confirm),
          unsubscribeUrl: unsubscribe,
          referralLink: link,
        },
        template,
      );
      const mailId = await this.insertMail(em, {
        projectId: project.id,
        kind: 'waitlist.confirmation',
        to: email,
        headers: oneClickUnsubscribe(unsubscribe),
        ...rendered,
      });
      afterCommit(() => this.enqueueMail(mailId));
      return toSignupResultDto(signup, link, project.plan);
    });
  }

  /** POST /v1/feedback from a browser: the statements of FeedbackService.createFeedback, in its order. */
  async createFeedback(project, input) {
    const verdict = classifyFeedback({ text: input.feedback_text, categoryHint: input.category_hint, rating: input.rating });
    return this.transaction(async (em) => {
      const row = {
        id: newId('fb'),
        projectId: project.id,
        feedbackText: input.feedback_text.trim(),
        classification: verdict.classification,
        confidence: verdict.confidence,
        summary: verdict.summary,
        userId: input.user_id ?? null,
        email: input.email ? input.email.trim().toLowerCase() : null,
        pageUrl: input.page_url ?? null,
        rating: input.rating ?? null,
        categoryHint: input.category_hint ?? null,
        changelogEntryId: null,
        createdAt: clock.now(),
      };
      await insertFeedback(em, row);
      if (row.email) await this.contacts.upsertContact(em, project.id, { email: row.email, stage: 'lead' });
      if (row.userId) await this.contacts.upsertContact(em, project.id, { userId: row.userId, stage: 'lead' });
      await this.outbox.record(em, project, 'feedback.created', feedbackCreatedData(row));
      return toFeedbackDto(row);
    });
  }

  /**
   * The public changelog routes: the service's one statement, the same body builders and the same
   * ETag; `kind` is `json`, `page` or a feed format (`rss`, `atom`, `json-feed`). Null for an unknown slug. The caller answers 304 when
   * `If-None-Match` carries the tag.
   */
  async publicChangelog(slug, kind, publicBaseUrl) {
    if (!isValidSlug(slug)) return null;
    const changelog = await readPublicChangelog(queryShim(this.pool), slug, { now: clock.now(), limit: 50, withLabels: kind === 'page' });
    if (!changelog) return null;
    const links = publicLinks({ publicBaseUrl }, changelog.project.slug);
    const feed = FEED_KINDS[kind];
    if (feed) return cacheableReply(renderFeed(changelog, links, feed), FEED_FORMATS[feed].contentType, { cors: true });
    if (kind === 'page') {
      const { project, entries, labels } = changelog;
      return changelogListPage({ projectName: project.name, slug: project.slug, entries, labels, q: null, label: null, links });
    }
    const data = changelog.entries.map((entry) => toPublicChangelogEntryDto(entry, links.entry(entry.id)));
    return cacheableReply(JSON.stringify({ data, error: null }), 'application/json; charset=utf-8', { cors: true });
  }

  /**
   * The bell's hourly read counter, as BellReadsLimit counts it (same Redis key): false past the
   * limit; the first read of the hour records the bell user.
   */
  async countBellRead(project, userId) {
    const now = clock.now();
    const limit = planLimit(project.plan, 'bellReadsPerUserPerHour');
    const key = `${this.queuePrefix}:rl:bell-reads:${project.id}:${hourWindow(now).hour}:${userId}`;
    const record = await this.limits.increment(key, { bucket: 'bell-reads', limit, windowMs: 3_660_000, lease: POLL_COUNTER_LEASE });
    if (record.totalHits > limit) return false;
    if (record.totalHits === 1) await recordBellUser(queryShim(this.pool), project.id, userId, now);
    return true;
  }

  /** GET /v1/notifications/unread/count: the one statement the service's bell runs when it holds no copy (the count and its next change). */
  async unreadCount(project, userId) {
    const { unreadCount } = await readBellState(queryShim(this.pool), { projectId: project.id, userId, now: clock.now() });
    return { data: { unread_count: unreadCount }, meta: { poll_interval_seconds: planLimit(project.plan, 'bellPollIntervalSeconds') } };
  }

  /** GET /v1/notifications/inbox: InboxService's list and count statements, side by side. */
  async inbox(project, userId) {
    const scope = { projectId: project.id, userId, now: clock.now() };
    const [rows, unreadCount] = await Promise.all([
      listBell(queryShim(this.pool), scope, { limit: 20 }),
      countUnread(queryShim(this.pool), scope),
    ]);
    return {
      data: rows.map(toBellNotificationDto),
      meta: { unread_count: unreadCount, poll_interval_seconds: planLimit(project.plan, 'bellPollIntervalSeconds') },
    };
  }

  /**
   * GET /v1/changelog/widget/entries for a verified user, first page: WidgetService.listEntries's one
   * statement and its answer. Reads this process holds unwritten are a Map lookup in the service
   * (the baselines hold none).
   */
  async widgetEntries(project, userId, publicBaseUrl) {
    const reader = { userId, reactor: `u:${userId}` };
    const now = clock.now();
    const limit = WIDGET_DEFAULT_LIMIT;
    const page = await readWidgetPage(queryShim(this.pool), project.id, reader, {
      now,
      label: null,
      q: null,
      category: null,
      after: null,
      limit,
      unseenAfter: unseenAfter(now),
    });
    const show = {
      publicUrl: (entryId) => entryPublicUrl({ publicBaseUrl }, project.slug, entryId),
      bodyHtml: (row) => this.bodies.htmlOf(row.id, row.updatedAt, row.bodyMarkdown),
      reactionSet: page.reactionSet,
      pendingRead: () => false,
    };
    const { pinned, page: unpinned } = page;
    const entries = unpinned.slice(0, limit);
    const last = entries[entries.length - 1];
    return {
      data: {
        entries: entries.map((row) => toWidgetEntryDto(row, show)),
        pinned: pinned.map((row) => toWidgetEntryDto(row, show)),
        next_cursor: unpinned.length > limit ? encodeCursor(PAGE_KEY, publishedCursorValue(last.publishedAt, last.id)) : null,
        unseen_count: page.unseenIds === null ? null : page.unseenIds.length,
        announcement: page.announcement ? toWidgetAnnouncementDto(page.announcement, show) : null,
        labels: page.labels,
        reactions: [...show.reactionSet],
        project: {
          name: project.name,
          show_badge: !planAllows(project.plan, 'unbranded_widget'),
          hosted_url: `${publicBaseUrl}/changelog/${project.slug}`,
          subscribe: { enabled: true, url: `${publicBaseUrl}/v1/changelog/subscribers` },
        },
      },
    };
  }

  /** GET /v1/changelog/widget/unseen for a verified user: WidgetService.unseen's one statement. */
  async widgetUnseen(project, userId) {
    const now = clock.now();
    const ids = await readUnseenIds(queryShim(this.pool), project.id, userId, now, unseenAfter(now));
    return { data: { unseen_count: ids.length } };
  }

  /** The outbox row MailService.queueMail writes. */
  async insertMail(em, draft) {
    const row = newMailRow(draft, clock.now());
    await insertMail(em, row);
    return row.id;
  }

  async close() {
    this.limits.close();
    await this.mailQueue.close();
    await this.pool.end();
    this.redis.disconnect();
  }
}

module.exports = { BaselineWork };
