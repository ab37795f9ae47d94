// Calls made offline that the server refused when they were replayed (decisions §10): shown once
// with the server's reason until the player dismisses them.
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import type { OutboxRow } from '@/lib/db';
import { dismissOutboxEntry } from '@/lib/outbox';
import { outboxCallName } from '../lib/mining-errors';

export function OutboxNotices({ rows }: { rows: readonly OutboxRow[] }) {
  const { t } = useTranslation('mining');
  const failed = rows.filter((r) => r.status === 'failed');
  if (failed.length === 0) return null;
  return (
    <ul className="mining-outbox" aria-label={t('outbox.title')}>
      {failed.map((row) => {
        const call = outboxCallName(row.path);
        return (
          <li key={row.id} className="mining-notice mining-notice--error" role="alert">
            <span>
              {t('outbox.failed', {
                action: call ? t(`outbox.actions.${call}`) : row.path,
                reason: row.error ?? (call ? t(`errors.${call}`) : t('errors:unexpected')),
              })}
            </span>
            <Button variant="link" onClick={() => void dismissOutboxEntry(row.id!)}>
              {t('outbox.dismiss')}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

/** The pending outbox call of this path, if one is waiting. */
export const pendingCall = (rows: readonly OutboxRow[] | undefined, path: string) =>
  rows?.find((r) => r.path === path && (r.status === 'pending' || r.status === 'sending')) ?? null;
