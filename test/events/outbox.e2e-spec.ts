import { EventEntity } from '../../src/events/entities/event.entity';
import { OutboxService } from '../../src/events/outbox.service';
import { ProbeModule } from '../support/probe.module';
import { TestApp } from '../support/test-app';

describe('event outbox', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('keeps the event when its transaction commits', async () => {
    const project = await t.seedProject();
    const res = await t.api.as(project.secretKey).post('/v1/_probe/events').send({ outcome: 'commit' }).expect(200);
    const event = await t.db.manager.findOneByOrFail(EventEntity, { id: res.body.data.event_id });
    expect(event).toMatchObject({ projectId: project.project.id, type: 'waitlist.signups.invited', data: { count: 0, invited: [] } });
    expect(res.body.data.event_id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const project = await t.seedProject();
    await t.api.as(project.secretKey).post('/v1/_probe/events').send({ outcome: 'rollback' }).expect(409);
    expect(await t.db.manager.countBy(EventEntity, { projectId: project.project.id })).toBe(0);
  });

  it('refuses data that does not match the catalog', async () => {
    const project = await t.seedProject();
    await expect(
      t.db.transaction((em) =>
        t.get(OutboxService).record(em, project.project.id, 'feedback.created', { feedback_id: 'fb_1', email: 'x@y.z' }),
      ),
    ).rejects.toThrow(/extra: email/);
  });

  it('builds the delivery envelope of the spec', () => {
    const envelope = OutboxService.envelope({
      id: 'evt_1',
      projectId: 'prj_1',
      type: 'waitlist.signups.invited',
      data: { count: 1 },
      createdAt: new Date('2026-11-25T10:00:00.000Z'),
    });
    expect(envelope).toEqual({
      id: 'evt_1',
      type: 'waitlist.signups.invited',
      created_at: '2026-11-25T10:00:00.000Z',
      project_id: 'prj_1',
      data: { count: 1 },
    });
  });
});
