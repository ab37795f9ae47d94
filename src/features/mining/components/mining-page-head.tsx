// The head every mining page shares (label, title, lead, actions) and the notices under it: load
// errors and calls the server refused. Offline is said once, by the app-wide offline line.
import type { ReactNode } from 'react';
import type { OutboxRow } from '@/lib/db';
import { OutboxNotices } from './outbox-notices';

export function MiningPageHead({
  kicker,
  title,
  lead,
  actions,
}: {
  kicker: string;
  title: string;
  lead?: ReactNode;
  actions: ReactNode;
}) {
  return (
    <header className="mining-page__head">
      <div>
        <p className="kicker">{kicker}</p>
        <h1 className="mining-page__title">{title}</h1>
        {lead && <p className="mining-page__lead">{lead}</p>}
      </div>
      <div className="mining-page__head-actions">{actions}</div>
    </header>
  );
}

export function MiningPageNotices({
  errors,
  outbox,
}: {
  errors: readonly string[];
  outbox: readonly OutboxRow[] | undefined;
}) {
  return (
    <>
      {errors.map((text) => (
        <p key={text} className="mining-notice mining-notice--error" role="alert">
          {text}
        </p>
      ))}
      {outbox && <OutboxNotices rows={outbox} />}
    </>
  );
}
