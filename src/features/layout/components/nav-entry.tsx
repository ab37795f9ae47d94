// A header or menu entry that marks the current page (`aria-current="page"`, class `active`), as
// React Router's NavLink does for these plain paths, without NavLink's route matching in the first
// visit's chunk.
import type { ComponentProps } from 'react';
import { Link, useLocation } from 'react-router';

export function NavEntry({ to, className, ...rest }: ComponentProps<typeof Link> & { to: string; className: string }) {
  const { pathname } = useLocation();
  const active = pathname === to || pathname.startsWith(`${to}/`);
  return (
    <Link
      {...rest}
      to={to}
      className={active ? `${className} active` : className}
      aria-current={active ? 'page' : undefined}
    />
  );
}
