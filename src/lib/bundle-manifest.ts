// The evidence bundle's manifest (issue 40): each file of the bundle with its SHA-256 and size. The
// service signs manifest.json (detached CMS, manifest.json.p7s); `formsign verify bundle.zip` checks
// that signature, then every file against it. One module makes and checks it, so they cannot drift.
import { createHash } from 'node:crypto';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_SIGNATURE_FILE = 'manifest.json.p7s';

export interface BundleManifest {
  object: 'evidence_manifest';
  form_id: string;
  created_at: string;
  /** The certificate that signs manifest.json.p7s (one-line subject), for a reader without tools. */
  signed_by: string;
  files: Array<{ name: string; sha256: string; size: number }>;
}

export const sha256Hex = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

export function manifestOf(files: ReadonlyArray<{ name: string; data: Uint8Array }>, head: Omit<BundleManifest, 'object' | 'files'>): BundleManifest {
  return { object: 'evidence_manifest', ...head, files: files.map((f) => ({ name: f.name, sha256: sha256Hex(f.data), size: f.data.byteLength })) };
}

/**
 * What is wrong with the bundle's files against its manifest: a file missing, changed (its SHA-256
 * or size), or present but not listed (apart from the manifest and its signature). Empty: all match.
 */
export function manifestProblems(manifestBytes: Uint8Array, files: ReadonlyMap<string, Uint8Array>): string[] {
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(Buffer.from(manifestBytes).toString('utf8')) as BundleManifest;
  } catch {
    return [`${MANIFEST_FILE} is not JSON`];
  }
  if (!Array.isArray(manifest.files)) return [`${MANIFEST_FILE} lists no files`];
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const f of manifest.files) {
    listed.add(f.name);
    const data = files.get(f.name);
    if (!data) problems.push(`${f.name}: missing`);
    else if (data.byteLength !== f.size || sha256Hex(data) !== f.sha256) problems.push(`${f.name}: changed (its SHA-256 is not the one the manifest lists)`);
  }
  for (const name of files.keys()) {
    if (!listed.has(name) && name !== MANIFEST_FILE && name !== MANIFEST_SIGNATURE_FILE) problems.push(`${name}: not listed in the manifest`);
  }
  return problems;
}
