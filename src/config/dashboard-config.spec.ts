import { ConfigError, loadConfig } from './app-config';

describe('dashboard settings (JWT_AUDIENCE, DASHBOARD_ORIGINS)', () => {
  it('leave audience unchecked and dashboard CORS closed when unset', () => {
    const config = loadConfig({ JWT_JWKS_URL: 'https://id.example.com/.well-known/jwks.json' });
    expect(config.jwt).toEqual({ jwksUrl: 'https://id.example.com/.well-known/jwks.json', issuer: null, audience: null });
    expect(config.dashboardOrigins).toEqual([]);
  });

  it('read the audience and normalise the origins', () => {
    const config = loadConfig({
      JWT_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
      JWT_AUDIENCE: 'launch-dashboard',
      DASHBOARD_ORIGINS: ' https://App.Example.com/ , http://localhost:5173,',
    });
    expect(config.jwt?.audience).toBe('launch-dashboard');
    expect(config.dashboardOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it.each(['*', 'https://app.example.com/path', 'app.example.com', 'https://*.example.com', 'ftp://x.io', 'https://u:p@x.io', ','])(
    'refuse DASHBOARD_ORIGINS=%j',
    (value) => {
      expect(() => loadConfig({ DASHBOARD_ORIGINS: value })).toThrow(ConfigError);
    },
  );
});
