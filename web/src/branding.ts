import { useEffect, useState } from 'react';
import { parseHexColour, toHex, washOf } from '../../src/lib/colour-contrast';
import { api, type Branding } from './api';

// The account's brand in the dashboard (issue 42): its accent on links and buttons, its logo in the
// top bar. Read once per page load and kept here; Settings → Branding announces a saved brand so the
// whole dashboard takes it at once. The accent is set through the CSSOM (allowed by the page's
// style-src 'self', unlike a style attribute in the HTML).

const EVENT = 'formsign:branding';
let current: Branding | null = null;
let loading: Promise<Branding | null> | null = null;

function load(): Promise<Branding | null> {
  loading ??= api<Branding>('GET', '/settings/branding').then((b) => (current = b), () => null);
  return loading;
}

/** The wash of an accent: the colour at 8% on white (badges, selected items), as the server's pages have it. */
export function washOfHex(hex: string): string {
  const rgb = parseHexColour(hex);
  return rgb ? toHex(washOf(rgb)) : hex;
}

function apply(b: Branding | null): void {
  const root = document.documentElement.style;
  if (b?.accent_color) {
    root.setProperty('--brand', b.accent_color);
    root.setProperty('--brand-dark', b.accent_color);
    root.setProperty('--brand-soft', washOfHex(b.accent_color));
  } else {
    for (const p of ['--brand', '--brand-dark', '--brand-soft']) root.removeProperty(p);
  }
}

/** Tells every user of the brand that it changed (after a save). */
export function brandingSaved(b: Branding): void {
  current = b;
  apply(b);
  window.dispatchEvent(new CustomEvent(EVENT));
}

/** The account's brand, null until read (or when it cannot be). */
export function useBranding(): Branding | null {
  const [brand, setBrand] = useState<Branding | null>(current);
  useEffect(() => {
    const update = () => setBrand(current);
    window.addEventListener(EVENT, update);
    void load().then((b) => {
      apply(b);
      setBrand(b);
    });
    return () => window.removeEventListener(EVENT, update);
  }, []);
  return brand;
}

/** A logo's address on this origin (the API gives the absolute one e-mails need). */
export function logoPath(url: string): string {
  return new URL(url).pathname;
}
