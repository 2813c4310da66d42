import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { type DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { TestApp } from '../support/test-app';

const NAMES = ['waitlist_confirmation', 'waitlist_invite', 'changelog_subscriber_confirmation', 'changelog_entry'];
const CUSTOM = {
  subject: 'Almost in, {{project_name}} #{{position}}',
  body: 'Hello from {{project_name}}!\n\nClick {{confirm_url}} to confirm.\n\nBye: {{unsubscribe_url}}',
};

describe('Email templates (dashboard)', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let owner: DashboardOwner;
  let stranger: DashboardOwner;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    t = await TestApp.start({ env: idp.env({ DASHBOARD_ORIGINS: 'https://app.launch.test' }) });
    owner = await provisionOwner(t.api, idp, 'templates_owner');
    stranger = await provisionOwner(t.api, idp, 'templates_stranger');
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  const as = (who: DashboardOwner, projectId = who.projectId) => ({
    get: (path: string) => t.api.as(who.token).get(path).set('X-Service-Project', projectId),
    put: (path: string) => t.api.as(who.token).put(path).set('X-Service-Project', projectId),
    post: (path: string) => t.api.as(who.token).post(path).set('X-Service-Project', projectId),
    delete: (path: string) => t.api.as(who.token).delete(path).set('X-Service-Project', projectId),
  });

  describe('GET /v1/dashboard/email-templates', () => {
    it('lists every email with its placeholders, none customized yet', async () => {
      const res = await as(owner).get('/v1/dashboard/email-templates').expect(200);
      expect(res.body.data.map((template: { name: string }) => template.name)).toEqual(NAMES);
      const confirm = res.body.data[0];
      expect(confirm).toMatchObject({ customized: false, updated_at: null });
      expect(confirm.placeholders.map((p: { name: string }) => p.name)).toEqual([
        'project_name',
        'position',
        'confirm_url',
        'referral_link',
        'unsubscribe_url',
      ]);
      expect(confirm.placeholders.find((p: { name: string }) => p.name === 'confirm_url')).toMatchObject({ required: true });
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      const res = await as(owner, stranger.projectId).get('/v1/dashboard/email-templates').expect(404);
      expect(res.body.error).toMatchObject({ code: 'PROJECT_NOT_FOUND', param: 'X-Service-Project' });
    });
  });

  describe('GET /v1/dashboard/email-templates/{name}', () => {
    it('answers the default text and NOT_FOUND for unknown names', async () => {
      const res = await as(owner).get('/v1/dashboard/email-templates/changelog_entry').expect(200);
      expect(res.body.data).toMatchObject({
        name: 'changelog_entry',
        customized: false,
        subject: '{{title}}{{#version}} ({{version}}){{/version}}',
      });
      expect(res.body.data.body).toBe(res.body.data.default_body);
      const unknown = await as(owner).get('/v1/dashboard/email-templates/welcome').expect(404);
      expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'name' });
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      expect((await as(owner, stranger.projectId).get('/v1/dashboard/email-templates/waitlist_invite').expect(404)).body.error.code).toBe(
        'PROJECT_NOT_FOUND',
      );
    });
  });

  describe('PUT /v1/dashboard/email-templates/{name}', () => {
    it('saves the text, which the project then sends instead of the default', async () => {
      const who = await provisionOwner(t.api, idp, 'templates_sender');
      const saved = await as(who).put('/v1/dashboard/email-templates/waitlist_confirmation').send(CUSTOM).expect(200);
      expect(saved.body.data).toMatchObject({ ...CUSTOM, customized: true, updated_at: expect.any(String) });
      expect((await as(who).get('/v1/dashboard/email-templates/waitlist_confirmation').expect(200)).body.data).toMatchObject(CUSTOM);

      await t.api.as(who.publishableKey).post('/v1/waitlist/signups').send({ email: 'Ada@Example.com' }).expect(201);
      const mail = await t.db.manager.findOneByOrFail(MailMessageEntity, { projectId: who.projectId, kind: 'waitlist.confirmation' });
      expect(mail.subject).toBe('Almost in, Project of templates_sender #1');
      expect(mail.textBody).toMatch(
        /^Hello from Project of templates_sender!\n\nClick https:\/\/launch\.test\/v1\/waitlist\/confirm\?token=\S+ to confirm\./,
      );
      expect(mail.htmlBody).toContain('<a href="https://launch.test/v1/waitlist/confirm?token=');
      // Another project still sends the default.
      await t.api.as(owner.publishableKey).post('/v1/waitlist/signups').send({ email: 'grace@example.com' }).expect(201);
      const other = await t.db.manager.findOneByOrFail(MailMessageEntity, { projectId: owner.projectId, kind: 'waitlist.confirmation' });
      expect(other.subject).toBe('Confirm your spot on the Project of templates_owner waitlist');
    });

    it('is used for the changelog subscriber confirmation too, with the values escaped in the HTML', async () => {
      const who = await provisionOwner(t.api, idp, 'templates_changelog');
      await as(who)
        .put('/v1/dashboard/email-templates/changelog_subscriber_confirmation')
        .send({ subject: 'Follow <{{project_name}}>?', body: 'Yes: {{confirm_url}}\nNo: {{unsubscribe_url}}' })
        .expect(200);
      await t.api.as(who.publishableKey).post('/v1/changelog/subscribers').send({ email: 'reader@example.com' }).expect(201);
      const mail = await t.db.manager.findOneByOrFail(MailMessageEntity, {
        projectId: who.projectId,
        kind: 'changelog.subscriber_confirmation',
      });
      expect(mail.subject).toBe('Follow <Project of templates_changelog>?');
      expect(mail.textBody).toMatch(/^Yes: https:\/\/launch\.test\/v1\/changelog\/subscribers\/confirm\?token=\S+\nNo: https/);
      expect(mail.htmlBody).toContain('<title>Follow &lt;Project of templates_changelog&gt;?</title>');
    });

    it.each([
      [{ subject: '', body: CUSTOM.body }, 'subject', /empty/],
      [{ subject: 'x'.repeat(201), body: CUSTOM.body }, 'subject', /at most 200/],
      [{ subject: 'Hi {{first_name}}', body: CUSTOM.body }, 'subject', /unknown placeholder \{\{first_name\}\}/],
      [{ subject: 'Hi', body: '   ' }, 'body', /empty/],
      [{ subject: 'Hi', body: `{{confirm_url}} {{unsubscribe_url}} ${'x'.repeat(20_000)}` }, 'body', /at most 20000/],
      [{ subject: 'Hi', body: 'Unsubscribe: {{unsubscribe_url}}' }, 'body', /must contain \{\{confirm_url\}\}/],
      [{ subject: 'Hi', body: '{{{confirm_url}}} {{unsubscribe_url}}' }, 'body', /not allowed/],
      [{ subject: 'Hi', body: '{{confirm_url}} {{unsubscribe_url}} {{coupon}}' }, 'body', /unknown placeholder \{\{coupon\}\}/],
    ])('refuses %j with EMAIL_TEMPLATE_INVALID on %s, storing nothing', async (template, param, message) => {
      const res = await as(owner).put('/v1/dashboard/email-templates/waitlist_confirmation').send(template).expect(422);
      expect(res.body).toMatchObject({
        data: null,
        error: { code: 'EMAIL_TEMPLATE_INVALID', param, message: expect.stringMatching(message) },
      });
      expect((await as(owner).get('/v1/dashboard/email-templates/waitlist_confirmation').expect(200)).body.data.customized).toBe(false);
    });

    it('refuses missing or non-string fields with VALIDATION_ERROR, and unknown names with NOT_FOUND', async () => {
      const missing = await as(owner).put('/v1/dashboard/email-templates/waitlist_invite').send({ subject: 'Hi' }).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'body' });
      const wrongType = await as(owner).put('/v1/dashboard/email-templates/waitlist_invite').send({ subject: 1, body: 'x' }).expect(400);
      expect(wrongType.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'subject' });
      const unknown = await as(owner).put('/v1/dashboard/email-templates/welcome').send(CUSTOM).expect(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      const res = await as(owner, stranger.projectId).put('/v1/dashboard/email-templates/waitlist_confirmation').send(CUSTOM).expect(404);
      expect(res.body.error.code).toBe('PROJECT_NOT_FOUND');
    });
  });

  describe('DELETE /v1/dashboard/email-templates/{name}', () => {
    it('resets to the default, which is sent again', async () => {
      const who = await provisionOwner(t.api, idp, 'templates_reset');
      await as(who).put('/v1/dashboard/email-templates/waitlist_confirmation').send(CUSTOM).expect(200);
      const res = await as(who).delete('/v1/dashboard/email-templates/waitlist_confirmation').expect(200);
      expect(res.body.data).toMatchObject({
        customized: false,
        updated_at: null,
        subject: 'Confirm your spot on the {{project_name}} waitlist',
      });
      await t.api.as(who.publishableKey).post('/v1/waitlist/signups').send({ email: 'back@example.com' }).expect(201);
      const mail = await t.db.manager.findOneByOrFail(MailMessageEntity, { projectId: who.projectId, kind: 'waitlist.confirmation' });
      expect(mail.subject).toBe('Confirm your spot on the Project of templates_reset waitlist');
      expect((await as(who).delete('/v1/dashboard/email-templates/nope').expect(404)).body.error.code).toBe('NOT_FOUND');
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      expect(
        (await as(owner, stranger.projectId).delete('/v1/dashboard/email-templates/waitlist_invite').expect(404)).body.error.code,
      ).toBe('PROJECT_NOT_FOUND');
    });
  });

  describe('POST /v1/dashboard/email-templates/{name}/preview', () => {
    it('renders the given text with sample values and the project name, storing nothing', async () => {
      const res = await as(owner).post('/v1/dashboard/email-templates/waitlist_confirmation/preview').send(CUSTOM).expect(200);
      expect(res.body.data.subject).toBe('Almost in, Project of templates_owner #42');
      expect(res.body.data.text).toContain('Click https://launch.example/v1/waitlist/confirm?token=sample to confirm.');
      expect(res.body.data.html).toContain('<a href="https://launch.example/v1/waitlist/confirm?token=sample">');
      expect((await as(owner).get('/v1/dashboard/email-templates/waitlist_confirmation').expect(200)).body.data.customized).toBe(false);
    });

    it('renders the text sent now without a body, with the entry body formatted', async () => {
      const res = await as(owner).post('/v1/dashboard/email-templates/changelog_entry/preview').send({}).expect(200);
      expect(res.body.data.subject).toBe('Dark mode is here (v2.1)');
      expect(res.body.data.html).toContain('<strong>Settings</strong>');
      expect(res.body.data.text).toContain('Switch themes from Settings');
    });

    it('refuses an invalid template with EMAIL_TEMPLATE_INVALID', async () => {
      const res = await as(owner).post('/v1/dashboard/email-templates/waitlist_invite/preview').send({ body: 'No link here' }).expect(422);
      expect(res.body.error).toMatchObject({
        code: 'EMAIL_TEMPLATE_INVALID',
        param: 'body',
        message: expect.stringContaining('{{unsubscribe_url}}'),
      });
    });

    it("answers PROJECT_NOT_FOUND for another account's project", async () => {
      const res = await as(owner, stranger.projectId).post('/v1/dashboard/email-templates/waitlist_invite/preview').send({}).expect(404);
      expect(res.body.error.code).toBe('PROJECT_NOT_FOUND');
    });
  });

  describe('CORS', () => {
    it('answers the dashboard origin on template routes', async () => {
      const preflight = await t.api
        .options('/v1/dashboard/email-templates/waitlist_invite')
        .set('Origin', 'https://app.launch.test')
        .set('Access-Control-Request-Method', 'PUT');
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.launch.test');
    });
  });
});
