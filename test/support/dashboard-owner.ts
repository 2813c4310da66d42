import type { TestIdentityProvider } from './identity-provider';
import type { TestApp } from './test-app';

export interface DashboardOwner {
  token: string;
  projectId: string;
  accountId: string;
  /** The first project's keys, shown once at provisioning. */
  secretKey: string;
  publishableKey: string;
}

/** A signed-in owner with an account and a first project (POST /v1/auth/provision), as the dashboard makes one. */
export async function provisionOwner(t: TestApp, idp: TestIdentityProvider, sub: string, email?: string): Promise<DashboardOwner> {
  const token = idp.token({ sub, email });
  const res = await t.api
    .as(token)
    .post('/v1/auth/provision')
    .send({ project_name: `Project of ${sub}` });
  if (res.status !== 200) throw new Error(`provision failed: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data;
  return {
    token,
    projectId: data.project.id,
    accountId: data.account.id,
    secretKey: data.secret_key,
    publishableKey: data.publishable_key,
  };
}
