// A React wrapper of <formsign-signing>: <FormsignSigning src={signingUrl} onCompleted={…} />.
import { createElement, useEffect, useRef, type CSSProperties, type ReactElement } from 'react';
import { defineFormsignSigning, type FormsignEvent, type FormsignEventType } from './formsign-signing.js';

export type { FormsignEvent, FormsignEventDetail, FormsignPageState } from './formsign-signing.js';

export interface FormsignSigningProps {
  /** The recipient's signing_url. */
  src: string;
  className?: string;
  style?: CSSProperties;
  onLoaded?: (e: FormsignEvent) => void;
  onCompleted?: (e: FormsignEvent) => void;
  onDeclined?: (e: FormsignEvent) => void;
  onWaiting?: (e: FormsignEvent) => void;
  onVoided?: (e: FormsignEvent) => void;
  onExpired?: (e: FormsignEvent) => void;
  onError?: (e: FormsignEvent) => void;
}

const HANDLERS: ReadonlyArray<[FormsignEventType, keyof FormsignSigningProps]> = [
  ['formsign:loaded', 'onLoaded'],
  ['formsign:completed', 'onCompleted'],
  ['formsign:declined', 'onDeclined'],
  ['formsign:waiting', 'onWaiting'],
  ['formsign:voided', 'onVoided'],
  ['formsign:expired', 'onExpired'],
  ['formsign:error', 'onError'],
];

export function FormsignSigning(props: FormsignSigningProps): ReactElement {
  const ref = useRef<HTMLElement>(null);
  // The latest handlers, read when an event comes, so new callbacks need no re-subscription.
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    defineFormsignSigning();
    const el = ref.current;
    if (!el) return undefined;
    const listeners = HANDLERS.map(([type, prop]) => {
      const listener = (e: Event) => (latest.current[prop] as ((e: FormsignEvent) => void) | undefined)?.(e as FormsignEvent);
      el.addEventListener(type, listener);
      return () => el.removeEventListener(type, listener);
    });
    return () => listeners.forEach((off) => off());
  }, []);
  return createElement('formsign-signing', { ref, src: props.src, className: props.className, style: props.style });
}
