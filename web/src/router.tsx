import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

// A small history router: the dashboard has a handful of addresses, all under /dashboard.

const EVENT = 'formsign:navigate';

let leaveGuard: (() => boolean) | null = null;

/** A page with unsaved work (the builder) asks before the app navigates away; null clears it. */
export function guardLeaving(guard: (() => boolean) | null): void {
  leaveGuard = guard;
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (leaveGuard && to !== location.pathname && !leaveGuard()) return;
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(EVENT));
  window.scrollTo(0, 0);
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(EVENT, update);
    };
  }, []);
  return path;
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}
