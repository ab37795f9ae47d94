import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './spinner';
import './button.css';

type Variant = 'primary' | 'secondary' | 'ghost' | 'link' | 'danger';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  block?: boolean;
  loading?: boolean;
  /** Looks inactive but stays clickable (the login button of spec §5 "looks active when…"). */
  dim?: boolean;
  icon?: ReactNode;
}

export function Button({
  variant = 'primary',
  block,
  loading,
  dim,
  icon,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  const classes = [
    'btn',
    `btn--${variant}`,
    block && 'btn--block',
    dim && 'btn--dim',
    loading && 'btn--loading',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined} {...rest}>
      {loading ? <Spinner size="sm" /> : icon}
      {children && <span className="btn__label">{children}</span>}
    </button>
  );
}
