// The result line under an action. It takes the focus when it appears: the button that was pressed
// is often gone or disabled by then, and focus must not fall back to the page body (inside a
// dialog that would also stop Esc from closing it).
import { useEffect, useRef, type ReactNode } from 'react';

export type Notice = { kind: 'ok' | 'error' | 'warn'; text: string } | null;

export function NoticeLine({ notice, children }: { notice: Notice; children?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice) ref.current?.focus({ preventScroll: true });
  }, [notice]);
  return (
    <div aria-live="polite" className="mining-notice-slot">
      {notice && (
        <div
          ref={ref}
          tabIndex={-1}
          className={`mining-notice mining-notice--${notice.kind}`}
          role={notice.kind === 'error' ? 'alert' : undefined}
        >
          <span>{notice.text}</span>
          {children}
        </div>
      )}
    </div>
  );
}
