// The one place PDF work's outcomes become the contract's errors (imports and fills alike).
import { PdfBusyError, PdfFillFailedError, PdfJobCancelledError, PdfRejectedError } from '../../pdf/index.js';
import { AppError } from '../errors.js';

/** `err` as an AppError when it is one of the PDF layer's outcomes; anything else is returned as is. */
export function fromPdfError(err: unknown, param?: string): unknown {
  if (err instanceof PdfRejectedError) return new AppError(err.code, err.message, param);
  if (err instanceof PdfBusyError) {
    return new AppError('service_unavailable', `Formsign is processing many PDFs right now. Please retry in ${err.retryAfterSeconds} s.`, undefined, {
      'Retry-After': String(err.retryAfterSeconds),
    });
  }
  // The client is gone; the answer reaches no one, but it must still be a contract error.
  if (err instanceof PdfJobCancelledError) return new AppError('service_unavailable', 'The request was cancelled before its PDF was processed.');
  // A stored template is trial-filled at import, so this is rare and not the caller's fault.
  if (err instanceof PdfFillFailedError) return new AppError('internal_error', `${err.message} Please contact support with the request id.`);
  return err;
}
