import { buildApp } from '../src/app.js';
import { openStore } from '../src/store/open-store.js';

/** The OpenAPI document exactly as the service serves it, from an app on an in-memory database. */
export async function openApiDocument(): Promise<unknown> {
  const opened = openStore({ databaseUrl: 'sqlite://:memory:', dataDir: '.' });
  await opened.migrate();
  const app = await buildApp({ store: opened.store, logLevel: 'silent' });
  try {
    const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    return res.json();
  } finally {
    await app.close();
    await opened.store.close();
  }
}
