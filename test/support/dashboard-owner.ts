import type { ApiClient } from './api-client';
import type { TestIdentityProvider } from './identity-provider';

export interface DashboardOwner {
  token: string;
  projectId: string;
  accountId: string;
  slug: string;
  /** The first project's keys, shown once at provisioning. */
  secretKey: string;
  publishableKey: string;
}

/**
 * A signed-in owner with an account and a first project (POST /v1/auth/provision), as the dashboard
 * makes one, through any API: a test app's (`t.api`) or one process of a cluster (`cluster.apiAt(0)`).
 */
export async function provisionOwner(
  api: ApiClient,
  idp: TestIdentityProvider,
  sub: string,
  email?: string,
  projectName = `Project of ${sub}`,
): Promise<DashboardOwner> {
  const token = idp.token({ sub, email });
  const res = await api.as(token).post('/v1/auth/provision').send({ project_name: projectName });
  if (res.status !== 200) throw new Error(`provision failed: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data;
  return {
    token,
    projectId: data.project.id,
    accountId: data.account.id,
    slug: data.project.slug,
    secretKey: data.secret_key,
    publishableKey: data.publishable_key,
  };
}
