/**
 * Baseline: a bare NestJS application on Express, as `nest new` makes it (default body parser, no
 * guards, pipes, interceptors or logging), whose handlers do the routes' work through
 * baseline-work.js. The service should come close to it: what separates them is our pipeline.
 */
require('reflect-metadata');
const nest = require('@nestjs/common');
const { Controller, Get, HttpException, Module } = nest;
const { NestFactory } = require('@nestjs/core');
const { BaselineWork } = require('./baseline-work');

const work = new BaselineWork({ databaseUrl: process.env.DATABASE_URL, poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10) });
const baseUrl = process.env.PUBLIC_BASE_URL ?? 'http://localhost';

async function projectOf(authorization, needsSecret) {
  const project = await work.authenticate(authorization, needsSecret);
  if (!project) throw new HttpException({ data: null, error: { code: 'INVALID_API_KEY' } }, 401);
  return project;
}

class BenchController {
  async setupCheck(authorization) {
    return { data: work.setupCheck(await projectOf(authorization, true), baseUrl), error: null };
  }

  async waitlistStats(authorization) {
    return { data: await work.waitlistStats(await projectOf(authorization, true)), error: null };
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
Controller('v1')(BenchController);

class BenchModule {}
Module({ controllers: [BenchController] })(BenchModule);

async function main() {
  const app = await NestFactory.create(BenchModule, { logger: ['error'] });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  process.send?.('ready');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

