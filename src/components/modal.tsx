// The dialog primitive every modal uses: role="dialog", aria-modal, labelled by its title, focus
// moved inside on open, trapped while open and given back on close, Esc and the backdrop close it
// only when `onClose` is given (the first-time username dialog has none: it cannot be dismissed).
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import './modal.css';

export interface ModalProps {
  title: string;
  children: ReactNode;
  /** Omit to make the dialog impossible to dismiss. */
  onClose?: () => void;
  /** Shows the back arrow. */
  onBack?: () => void;
  size?: 'sm' | 'md' | 'lg';
  /** A line under the title, used as the dialog's description. */
  description?: ReactNode;
  /** Extra class on the panel. */
  className?: string;
}

let openDialogs = 0;
let opener: HTMLElement | null = null;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({ title, children, onClose, onBack, size = 'sm', description, className }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const descId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // Focus in on open; the page behind becomes inert. When the last dialog closes (a switch from
  // one dialog to the next is not a close), focus goes back to what opened the first one.
  useEffect(() => {
    // Kept until the last dialog has closed (set by the first one, not by a switch).
    openDialogs++;
    opener ??= document.activeElement as HTMLElement | null;
    const root = document.getElementById('root');
    root?.setAttribute('inert', '');
    const p = panel.current;
    const first =
      p?.querySelector<HTMLElement>('[data-autofocus]') ??
      p?.querySelector<HTMLElement>(`.modal__body :is(${FOCUSABLE})`) ??
      p?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    return () => {
      openDialogs--;
      queueMicrotask(() => {
        if (openDialogs > 0) return;
        root?.removeAttribute('inert');
        if (opener && document.contains(opener)) opener.focus();
        opener = null;
      });
    };
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      if (onCloseRef.current) {
        e.stopPropagation();
        onCloseRef.current();
      }
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (el) => el.offsetParent !== null || el === document.activeElement,
    );
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    // A click on the backdrop is the pointer's way to close; the keyboard's is Escape (onKeyDown).
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose?.()}>
      {/* The dialog itself handles Escape and keeps Tab inside (the focus trap). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={panel}
        className={['modal', `modal--${size}`, className].filter(Boolean).join(' ')}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="modal__bar">
          {onBack ? (
            <button type="button" className="modal__icon" onClick={onBack} aria-label={t('modal.back')}>
              <svg width="20" height="20" viewBox="0 0 10 10" shapeRendering="crispEdges" aria-hidden="true">
                <path
                  fill="currentColor"
                  d="M4 1h1v1H4zM3 2h1v1H3zM2 3h1v1H2zM1 4h8v2H1zM2 6h1v1H2zM3 7h1v1H3zM4 8h1v1H4z"
                />
              </svg>
            </button>
          ) : (
            <span />
          )}
          {onClose && (
            <button type="button" className="modal__icon" onClick={onClose} aria-label={t('modal.close')}>
              <svg width="20" height="20" viewBox="0 0 10 10" shapeRendering="crispEdges" aria-hidden="true">
                <path
                  fill="currentColor"
                  d="M1 1h2v1H1zM2 2h2v1H2zM3 3h4v1H3zM4 4h2v2H4zM3 6h4v1H3zM2 7h2v1H2zM1 8h2v1H1zM7 1h2v1H7zM6 2h2v1H6zM6 7h2v1H6zM7 8h2v1H7z"
                />
              </svg>
            </button>
          )}
        </div>
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {description && (
          <div id={descId} className="modal__description">
            {description}
          </div>
        )}
        <div className="modal__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
