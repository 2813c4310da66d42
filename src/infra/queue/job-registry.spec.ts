import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { JobRegistry } from './job-registry';
import { OnJob } from './on-job.decorator';

@Injectable()
class FirstSender {
  sent: unknown[] = [];

  @OnJob('mail.send')
  async send(payload: unknown): Promise<void> {
    this.sent.push(payload);
  }
}

@Injectable()
class SecondSender {
  @OnJob('mail.send')
  async sendAgain(): Promise<void> {}
}

async function registryWith(...providers: (typeof FirstSender | typeof SecondSender)[]): Promise<JobRegistry> {
  const moduleRef = await Test.createTestingModule({ imports: [DiscoveryModule], providers: [JobRegistry, ...providers] }).compile();
  await moduleRef.init();
  return moduleRef.get(JobRegistry);
}

describe('JobRegistry', () => {
  it('binds each job of the catalog to its one handler', async () => {
    const registry = await registryWith(FirstSender);
    const handler = registry.handlerFor('mail.send');
    await handler?.({ mail_id: 'mail_1' });
    expect(handler).toBeDefined();
  });

  it('refuses to start when a job has two handlers', async () => {
    await expect(registryWith(FirstSender, SecondSender)).rejects.toThrow(/job "mail\.send" has 2 handlers/);
  });

  it('refuses to start when a job has no handler', async () => {
    await expect(registryWith()).rejects.toThrow(/job "mail\.send" has 0 handlers/);
  });
});
