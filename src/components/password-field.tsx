import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from './text-field';

/** A password field with the show/hide toggle of spec §2. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          className="icon-button"
          aria-pressed={visible}
          aria-label={visible ? t('password.hide') : t('password.show')}
          onClick={() => setVisible((v) => !v)}
        >
          <svg width="22" height="22" viewBox="0 0 11 11" shapeRendering="crispEdges" aria-hidden="true">
            <path
              fill="currentColor"
              d="M3 3h5v1H3zM2 4h1v1H2zM8 4h1v1H8zM1 5h1v1H1zM9 5h1v1H9zM2 6h1v1H2zM8 6h1v1H8zM3 7h5v1H3zM4 4h3v3H4z"
            />
            {visible ? null : <path fill="currentColor" d="M1 1h1v1H1zM2 2h1v1H2zM8 8h1v1H8zM9 9h1v1H9z" />}
          </svg>
        </button>
      }
    />
  );
}
