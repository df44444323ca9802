// Worker-thread resource limits cap the JS heap, but decoded stream data lives in ArrayBuffers
// outside it, so a small FlateDecode "bomb" in an object stream could still inflate to gigabytes
// before the wall-clock timeout fires. pdf-lib grows every decode buffer through one method,
// DecodeStream.ensureBuffer; capping it there turns a bomb into an ordinary parse error.
import { decodePDFRawStream, PDFContext, PDFRawStream } from '@cantoo/pdf-lib';

export class DecodedStreamTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`A compressed stream in this PDF expands beyond ${Math.round(limit / 1048576)} MiB`);
    this.name = 'DecodedStreamTooLargeError';
  }
}

type EnsureBuffer = (this: unknown, requested: number) => Uint8Array;
interface DecodeStreamPrototype { ensureBuffer: EnsureBuffer }
const GUARDED = Symbol.for('formsign.pdf.decodeGuard');
let trips = 0;

/**
 * How many decodes the guard has stopped in this thread. pdf-lib swallows parse errors inside
 * object streams and carries on without their objects, so callers compare this count instead
 * of relying on the error reaching them.
 */
export const decodeGuardTrips = (): number => trips;

function decodeStreamPrototype(): DecodeStreamPrototype {
  const context = PDFContext.create();
  const probe: unknown = decodePDFRawStream(PDFRawStream.of(context.obj({ Filter: 'ASCIIHexDecode' }), new Uint8Array(0)));
  let proto: unknown = Object.getPrototypeOf(probe);
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'ensureBuffer')) proto = Object.getPrototypeOf(proto);
  if (!proto) throw new Error('pdf-lib changed: DecodeStream.ensureBuffer was not found, the decode guard cannot be installed');
  return proto as DecodeStreamPrototype;
}

/** Makes every pdf-lib stream decode in this thread fail once it would exceed maxBytes. */
export function installDecodeGuard(maxBytes: number): void {
  const proto = decodeStreamPrototype() as DecodeStreamPrototype & { [GUARDED]?: boolean };
  if (proto[GUARDED]) return;
  const original = proto.ensureBuffer;
  proto.ensureBuffer = function guardedEnsureBuffer(this: unknown, requested: number): Uint8Array {
    if (requested > maxBytes) {
      trips++;
      throw new DecodedStreamTooLargeError(maxBytes);
    }
    return original.call(this, requested);
  };
  proto[GUARDED] = true;
}
