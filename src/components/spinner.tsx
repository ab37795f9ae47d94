import './spinner.css';

/** A pixel spinner. `label` is the accessible text (already translated). */
export function Spinner({ label, size = 'md' }: { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span
      className={`spinner spinner--${size}`}
      role={label ? 'status' : undefined}
      aria-hidden={label ? undefined : true}
    >
      <span className="spinner__box" />
      {label && <span className="visually-hidden">{label}</span>}
    </span>
  );
}
