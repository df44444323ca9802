import type { SigningCertificateRefusedError } from '../../pdf/index.js';

// How long what was learnt of the signing certificate stands before /readyz asks again: OCSP
// answers are typically valid for hours, and a probe every few seconds must not become a request
// to the CA every few seconds.
const RECHECK_MS = 10 * 60_000;

/**
 * Whether seals can be written with the signing certificate, for /readyz: a seal refused for a
 * revoked or expired certificate (in this process) says so at once; otherwise the certificate is
 * checked (its validity, and the OCSP responses or CRLs it names) at most every ten minutes, each
 * check within the probe's own bound. A responder that does not answer in time leaves the last
 * verdict (a check that learnt nothing is no refusal).
 */
export interface CertificateReadiness {
  /** A seal was refused for this reason (SigningCertificateRefusedError). */
  refused(err: SigningCertificateRefusedError): void;
  /** Why seals are refused now, or undefined when they are not. */
  problem(): Promise<string | undefined>;
}

export function createCertificateReadiness(check: () => Promise<void>, now: () => number, boundMs: number): CertificateReadiness {
  let verdict: { at: number; problem: string | undefined } | undefined;
  let running: Promise<void> | undefined;
  const describe = (err: SigningCertificateRefusedError): string => `seals are refused: ${err.message}`;
  const refresh = (): Promise<void> => (running ??= check().then(
    () => void (verdict = { at: now(), problem: undefined }),
    (err: unknown) => {
      if (err instanceof Error && err.name === 'SigningCertificateRefusedError') verdict = { at: now(), problem: describe(err as SigningCertificateRefusedError) };
    },
  ).finally(() => (running = undefined)));
  return {
    refused(err) {
      verdict = { at: now(), problem: describe(err) };
    },
    async problem() {
      if (!verdict || now() - verdict.at >= RECHECK_MS) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([refresh(), new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)))]).finally(() => clearTimeout(timer));
      }
      return verdict?.problem;
    },
  };
}
