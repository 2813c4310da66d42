import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test, TestingModule } from '@nestjs/testing';
import { JOBS, type JobName } from './job-catalog';
import { JobRegistry } from './job-registry.service';
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

/** One handler for every job of the catalog except mail.send, so each test decides mail.send alone. */
@Injectable()
class OtherJobs {}
for (const job of Object.keys(JOBS) as JobName[]) {
  if (job === 'mail.send') continue;
  const handler = { [job]: async (): Promise<void> => {} };
  Object.defineProperty(OtherJobs.prototype, job, { value: handler[job] });
  OnJob(job)(OtherJobs.prototype, job, Object.getOwnPropertyDescriptor(OtherJobs.prototype, job) as PropertyDescriptor);
}

async function moduleWith(...providers: (typeof FirstSender | typeof SecondSender)[]): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [JobRegistry, OtherJobs, ...providers],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

describe('JobRegistry', () => {
  it('binds each job of the catalog to its one handler', async () => {
    const moduleRef = await moduleWith(FirstSender);
    await moduleRef.get(JobRegistry).handlerFor('mail.send')?.({ id: 'mail_1' });
    await moduleRef.get(JobRegistry).handlerFor('mail.send')?.({ id: 'mail_2' });
    expect(moduleRef.get(FirstSender).sent).toEqual([{ id: 'mail_1' }, { id: 'mail_2' }]);
  });

  it('refuses to start when a job has two handlers', async () => {
    await expect(moduleWith(FirstSender, SecondSender)).rejects.toThrow(/job "mail\.send" has 2 handlers/);
  });

  it('refuses to start when a job has no handler', async () => {
    await expect(moduleWith()).rejects.toThrow(/job "mail\.send" has 0 handlers/);
  });
});
