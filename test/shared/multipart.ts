import { randomBytes } from 'node:crypto';

/** Builds a multipart/form-data body, as curl -F would send it. */
export function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----formsign${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.filename ? `Content-Type: ${p.type ?? 'application/pdf'}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
