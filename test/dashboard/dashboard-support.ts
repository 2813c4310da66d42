import type { TestIdentityProvider } from '../support/identity-provider';
import type { TestApp } from '../support/test-app';

export interface SignedUp {
  token: string;
  accountId: string;
  projectId: string;
  slug: string;
  secretKey: string;
  publishableKey: string;
}

/** A dashboard user with an account and its first project (POST /v1/auth/provision). */
export async function signUp(t: TestApp, idp: TestIdentityProvider, subject: string, projectName = 'First'): Promise<SignedUp> {
  const token = idp.token({ sub: subject, email: `${subject}@example.com` });
  const res = await t.api.as(token).post('/v1/auth/provision').send({ project_name: projectName }).expect(200);
  const data = res.body.data;
  return {
    token,
    accountId: data.account.id,
    projectId: data.project.id,
    slug: data.project.slug,
    secretKey: data.secret_key,
    publishableKey: data.publishable_key,
  };
}

export const DAY_MS = 86_400_000;
