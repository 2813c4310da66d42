/**
 * Baseline: a bare NestJS application on Express, as `nest new` makes it (default body parser, no
 * guards, pipes, interceptors or logging), whose handlers do the routes' work through
 * baseline-work.js. The service should come close to it: what separates them is our pipeline.
 */
require('reflect-metadata');
const nest = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { BaselineWork } = require('./baseline-work');
const { workOptionsFromEnv } = require('./baseline-options');

const { Controller, Get, HttpException, Module, Post } = nest;
const work = new BaselineWork(workOptionsFromEnv());
const baseUrl = process.env.PUBLIC_BASE_URL ?? 'http://localhost';

function refuse(status, code) {
  throw new HttpException({ data: null, error: { code } }, status);
}

async function projectOf(authorization, needsSecret) {
  return (await work.authenticate(authorization, needsSecret)) ?? refuse(401, 'INVALID_API_KEY');
}

async function browserProjectOf(authorization, ip) {
  const project = await projectOf(authorization, false);
  if (!(await work.limitBrowser(ip))) refuse(429, 'RATE_LIMITED');
  return project;
}

class BenchController {
  async setupCheck(authorization) {
    return { data: work.setupCheck(await projectOf(authorization, true), baseUrl), error: null };
  }

  async waitlistStats(authorization) {
    return { data: await work.waitlistStats(await projectOf(authorization, true)), error: null };
  }

  async createSignup(authorization, ip, body) {
    const project = await browserProjectOf(authorization, ip);
    return { data: await work.createSignup(project, body, 'widget', baseUrl), error: null };
  }

  async unreadCount(authorization, ip, userId, hash) {
    return this.bell(authorization, ip, userId, hash, (project) => work.unreadCount(project, userId));
  }

  async inbox(authorization, ip, userId, hash) {
    return this.bell(authorization, ip, userId, hash, (project) => work.inbox(project, userId));
  }

  async widgetEntries(authorization, ip, userId, hash) {
    return this.verified(authorization, ip, userId, hash, (project) => work.widgetEntries(project, userId, baseUrl));
  }

  async widgetUnseen(authorization, ip, userId, hash) {
    return this.verified(authorization, ip, userId, hash, (project) => work.widgetUnseen(project, userId));
  }

  /** A browser's bell read: a verified user's call, with the user's hourly read count before the read. */
  async bell(authorization, ip, userId, hash, read) {
    return this.verified(authorization, ip, userId, hash, async (project) => {
      if (!(await work.countBellRead(project, userId))) refuse(429, 'RATE_LIMITED');
      return read(project);
    });
  }

  /** A verified user's call from a browser: key, browser limit and user hash, then the read. */
  async verified(authorization, ip, userId, hash, read) {
    const project = await work.authenticateEndUser(authorization, ip, userId, hash);
    if (!project) refuse(403, 'USER_HASH_INVALID');
    return { ...(await read(project)), error: null };
  }

  async createFeedback(authorization, ip, body) {
    const project = await browserProjectOf(authorization, ip);
    return { data: await work.createFeedback(project, body), error: null };
  }
}

/** The public changelog routes: Express's send answers If-None-Match with 304, as in the service. */
class PublicChangelogBenchController {
  async publicEntries(ip, slug, res) {
    return this.answer(ip, slug, 'json', res);
  }

  async rssFeed(ip, slug, res) {
    return this.answer(ip, slug, 'rss', res);
  }

  async atomFeed(ip, slug, res) {
    return this.answer(ip, slug, 'atom', res);
  }

  async jsonFeed(ip, slug, res) {
    return this.answer(ip, slug, 'json-feed', res);
  }

  async page(ip, slug, res) {
    return this.answer(ip, slug, 'page', res);
  }

  async answer(ip, slug, kind, res) {
    if (!(await work.limitBrowser(ip))) refuse(429, 'RATE_LIMITED');
    const reply = (await work.publicChangelog(slug, kind, baseUrl)) ?? refuse(404, 'NOT_FOUND');
    res.status(200).type(reply.contentType).set(reply.headers).send(reply.body);
  }
}

// Decorators applied by hand: this file runs as plain JavaScript, without a compile step.
function route(decorator, method, params = []) {
  const descriptor = Object.getOwnPropertyDescriptor(BenchController.prototype, method);
  for (const [index, param] of params.entries()) param(BenchController.prototype, method, index);
  decorator(BenchController.prototype, method, descriptor);
  Object.defineProperty(BenchController.prototype, method, descriptor);
}
route(Get('setup-check'), 'setupCheck', [nest.Headers('authorization')]);
route(Get('waitlist/stats'), 'waitlistStats', [nest.Headers('authorization')]);
route(Post('waitlist/signups'), 'createSignup', [nest.Headers('authorization'), nest.Ip(), nest.Body()]);
route(Post('feedback'), 'createFeedback', [nest.Headers('authorization'), nest.Ip(), nest.Body()]);
const END_USER_PARAMS = [nest.Headers('authorization'), nest.Ip(), nest.Query('user_id'), nest.Headers('x-service-user-hash')];
route(Get('notifications/unread/count'), 'unreadCount', END_USER_PARAMS);
route(Get('notifications/inbox'), 'inbox', END_USER_PARAMS);
route(Get('changelog/widget/entries'), 'widgetEntries', END_USER_PARAMS);
route(Get('changelog/widget/unseen'), 'widgetUnseen', END_USER_PARAMS);
Controller('v1')(BenchController);

function publicRoute(decorator, method) {
  const descriptor = Object.getOwnPropertyDescriptor(PublicChangelogBenchController.prototype, method);
  const params = [nest.Ip(), nest.Param('slug'), nest.Res()];
  for (const [index, param] of params.entries()) param(PublicChangelogBenchController.prototype, method, index);
  decorator(PublicChangelogBenchController.prototype, method, descriptor);
  Object.defineProperty(PublicChangelogBenchController.prototype, method, descriptor);
}
publicRoute(Get('public/changelog/:slug'), 'publicEntries');
publicRoute(Get('public/changelog/:slug/rss.xml'), 'rssFeed');
publicRoute(Get('public/changelog/:slug/atom.xml'), 'atomFeed');
publicRoute(Get('public/changelog/:slug/feed.json'), 'jsonFeed');
publicRoute(Get('changelog/:slug'), 'page');
Controller()(PublicChangelogBenchController);

class BenchModule {}
Module({ controllers: [BenchController, PublicChangelogBenchController] })(BenchModule);

async function main() {
  const app = await NestFactory.create(BenchModule, { logger: ['error'] });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  process.once('SIGTERM', () =>
    app
      .close()
      .then(() => work.close())
      .then(() => process.exit(0)),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
