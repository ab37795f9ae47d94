// The public configuration of GET /api/v1/config/ (app name for the wallet text, Google client id,
// …), fetched once per page and kept in Dexie `meta` so it is known offline.
import { useEffect, useState } from 'react';
import type { PublicConfig } from '@shared/api/config';
import { api } from './api-client';

let pending: Promise<PublicConfig> | null = null;

export function loadAppConfig(): Promise<PublicConfig> {
  pending ??= api<PublicConfig>('config/', { skipAuth: true })
    .then(async (config) => {
      await import('./db').then(({ db }) => db.meta.put({ key: 'config', value: config })).catch(() => undefined);
      return config;
    })
    .catch(async (err) => {
      pending = null;
      const cached = await import('./db').then(({ db }) => db.meta.get('config')).catch(() => undefined);
      if (cached) return cached.value as PublicConfig;
      throw err;
    });
  return pending;
}

/** The config once loaded (null until then, or when it cannot be had). */
export function useAppConfig(): PublicConfig | null {
  const [config, setConfig] = useState<PublicConfig | null>(null);
  useEffect(() => {
    let live = true;
    loadAppConfig().then(
      (c) => live && setConfig(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return config;
}
