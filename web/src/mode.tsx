import { createContext, useContext } from 'react';
import type { Mode, SessionView } from './api';

// Which partition the pages show: test (every plan) or live (paid plans). Kept per browser.

const KEY = 'formsign.mode';

export function storedMode(session: SessionView): Mode {
  return session.account.plan === 'paid' && localStorage.getItem(KEY) === 'live' ? 'live' : 'test';
}

export function storeMode(mode: Mode): void {
  localStorage.setItem(KEY, mode);
}

export interface AppState {
  session: SessionView;
  mode: Mode;
  setMode(mode: Mode): void;
  signOut(): Promise<void>;
  refreshSession(session: SessionView): void;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const v = useContext(AppContext);
  if (!v) throw new Error('useApp outside the signed-in app');
  return v;
}
