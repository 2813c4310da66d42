import type { TestIdentityProvider } from './identity-provider';
import type { TestApp } from './test-app';

export interface DashboardOwner {
  token: string;
  projectId: string;
  accountId: string;
}

/** A signed-in owner with an account and a first project (POST /v1/auth/provision), as the dashboard makes one. */
export async function provisionOwner(t: TestApp, idp: TestIdentityProvider, sub: string, email?: string): Promise<DashboardOwner> {
  const token = idp.token({ sub, email });
  const res = await t.api
    .as(token)
    .post('/v1/auth/provision')
    .send({ project_name: `Project of ${sub}` });
  if (res.status !== 200) throw new Error(`provision failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token, projectId: res.body.data.project.id, accountId: res.body.data.account.id };
}
