// The signed-in player's part of the PWA layer (its own chunk: it reads Dexie). It mirrors the
// number of outbox calls still waiting into `pendingCallsAtom` for the offline banner, asks for a
// Background Sync when calls are queued, offers claim reminders on the miner page, and shows a
// reminder itself when one arrives while the player looks at their miner. Inside Telegram the bot
// sends the reminders (decisions §14; a Mini App's frame or WebView cannot ask for notifications).
import { useLiveQuery } from '@/lib/live-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useCurrentUser } from '@/lib/current-user';
import { db } from '@/lib/db';
import { pendingCount } from '@/lib/outbox';
import { inTelegramAtom } from '@/lib/telegram-host';
import { useFromNextPageUnlessAsked } from '../lib/from-next-page';
import { pushSupported } from '../lib/push-subscription';
import { requestOutboxSync } from '../lib/sw-registration';
import { pendingCallsAtom } from '../state/pwa-atoms';
import { InCardSlot } from './in-card-slot';
import { PushCard } from './push-card';
import { ReminderLine } from './reminder-line';

export default function PlayerPwa() {
  const setPending = useSetAtom(pendingCallsAtom);
  const pending = useLiveQuery(() => pendingCount(), [], 0);
  const { pathname } = useLocation();
  const user = useCurrentUser();
  const inTelegram = useAtomValue(inTelegramAtom);
  // Mining sessions are the rows of kind 'session' (the mining feature keeps other rows beside them).
  const sessions = useLiveQuery(() => db.sessions.filter((row) => row.kind === 'session').count());

  useEffect(() => {
    setPending(pending);
    if (pending > 0) void requestOutboxSync();
  }, [pending, setPending]);
  useEffect(() => () => setPending(0), [setPending]);

  const onMiner = (pathname.replace(/\/+$/, '') || '/') === '/miner';
  const hasMined = user === undefined || sessions === undefined ? undefined : Boolean(user?.mining) || sessions > 0;
  // This layer arrives when the page is idle: a card pushed in then shoves the miner being read
  // (layout shift 0.08 on a phone, issue 14). It comes with the next page, or at once when the
  // player's own Start on this page made it due.
  const offered = useFromNextPageUnlessAsked(
    hasMined === undefined ? undefined : hasMined && !inTelegram && pushSupported(),
  );
  return (
    <>
      <ReminderLine />
      {onMiner && offered && (
        <InCardSlot>
          <PushCard />
        </InCardSlot>
      )}
    </>
  );
}
