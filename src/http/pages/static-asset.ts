import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptsEncoding } from '../accept-encoding.js';
import { setSecurityHeaders } from './security-headers.js';

const gzip = promisify(zlib.gzip);

/**
 * A file served under a name that carries its content hash (`formsign.3f2a9c41.css`), so it can be
 * cached for a year: new contents get a new address. Read once per process, on first use; the gzip
 * copy is made off the event loop on the first request that accepts it.
 */
export class StaticAsset {
  #body: Buffer | undefined;
  #url: string | undefined;
  #gzipped: Promise<Buffer> | undefined;

  constructor(
    private readonly dir: string,
    private readonly base: string,
    private readonly ext: string,
    readonly contentType: string,
    private readonly read: () => Buffer,
  ) {}

  get body(): Buffer {
    return (this.#body ??= this.read());
  }

  /** The hashed address, e.g. `/assets/formsign.3f2a9c41.css`. */
  get url(): string {
    return (this.#url ??= `${this.dir}${this.base}.${createHash('sha256').update(this.body).digest('hex').slice(0, 12)}.${this.ext}`);
  }

  gzipped(): Promise<Buffer> {
    return (this.#gzipped ??= gzip(this.body, { level: 9 }));
  }

  async send(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    setSecurityHeaders(reply).header('Cache-Control', 'public, max-age=31536000, immutable').header('Vary', 'Accept-Encoding').type(this.contentType);
    if (acceptsEncoding(req.headers['accept-encoding'], 'gzip') && this.body.length > 1024) {
      return reply.header('Content-Encoding', 'gzip').send(await this.gzipped());
    }
    return reply.send(this.body);
  }
}

/** An asset kept beside this module, in `assets/`. */
export function localAsset(dir: string, file: string, contentType: string): StaticAsset {
  const dot = file.lastIndexOf('.');
  return new StaticAsset(dir, file.slice(0, dot), file.slice(dot + 1), contentType, () => fs.readFileSync(new URL(`./assets/${file}`, import.meta.url)));
}

export function registerAssets(app: FastifyInstance, assets: readonly StaticAsset[]): void {
  for (const asset of assets) app.get(asset.url, (req, reply) => asset.send(req, reply));
}
