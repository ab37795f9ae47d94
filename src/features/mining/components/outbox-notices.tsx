// Calls made offline that the server refused when they were replayed (decisions §10): shown once
// with the reason, in the player's language, until the player dismisses them.
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import type { OutboxRow } from '@/lib/db';
import { dismissOutboxEntry } from '@/lib/outbox';
import { outboxCallName, outboxRefusalText } from '../lib/mining-errors';

export function OutboxNotices({ rows }: { rows: readonly OutboxRow[] }) {
  const { t, i18n } = useTranslation('mining');
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
                action: call ? t(`outbox.actions.${call}`, { tier: tierOf(row) }) : row.path,
                reason: outboxRefusalText(row, i18n),
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

/** The tier an arcade claim asked for (its body), named in the notice. */
const tierOf = (row: OutboxRow) => (row.body as { tier?: unknown } | undefined)?.tier;
