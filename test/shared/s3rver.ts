import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

// s3rver (a dev dependency) ships no type declarations; this is the surface the tests drive. It only
// knows its built-in account for signed requests.

export interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; directory: string; silent: boolean; vhostBuckets: boolean }) => S3rverServer;
export const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** An s3rver on a free loopback port, keeping its objects in `directory`. */
export async function startS3rver(directory: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, vhostBuckets: false });
  const { port } = await server.run();
  return { port, close: () => server.close() };
}
