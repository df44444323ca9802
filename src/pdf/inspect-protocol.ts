// Messages between the inspector and its worker thread.
import type { FieldDef, PdfRejectionCode } from './field.js';

export interface InspectRequest { id: number; bytes: Uint8Array }

export type InspectReply =
  | { id: number; ok: true; pageCount: number; fields: FieldDef[]; warnings: string[]; decryptedPdf?: Uint8Array }
  | { id: number; ok: false; code: PdfRejectionCode; message: string };

export interface WorkerReady { ready: true }

export interface InspectWorkerData { maxDecodedStreamBytes: number }
