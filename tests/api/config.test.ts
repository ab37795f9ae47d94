import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('public config and plumbing on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { GOOGLE_CLIENT_ID: 'client-123', MINING_SESSION_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('tells the client what it needs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/config/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      app_name: 'PXT Companion',
      google_client_id: 'client-123',
      mining_session_seconds: 60,
      payments_available: true,
    });
    expect(res.json().vapid_public_key).toMatch(/^[A-Za-z0-9_-]{80,}$/);
  });

  it('answers unknown API paths with a JSON 404, never the app shell', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/does-not-exist/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'No route GET /api/v1/does-not-exist/', code: 'not_found' });
  });

  it('serves OpenAPI built from the schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/api/v1/config/');
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/config/' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});
