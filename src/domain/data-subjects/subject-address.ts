import { sha256Hex } from '../../lib/crypto.js';
import { AppError } from '../errors.js';
import { normaliseRecipients } from '../sending/recipient-rules.js';

/** The person a data-subject request is about: one e-mail address or one phone number. */
export interface SubjectInput {
  email?: string | undefined;
  phone?: string | undefined;
}

export interface Subject {
  /** What recipients are found by: the lower-cased e-mail or the E.164 number (recipients.address_key). */
  key: string;
  kind: 'email' | 'phone';
  /** How the request is recorded (data_subject_requests): never the address itself. */
  sha256: string;
}

/** One of `email` or `phone`, normalised as sending normalises a recipient's (so the same person is found). */
export function subjectOf(input: SubjectInput): Subject {
  if (input.email !== undefined && input.phone !== undefined) throw new AppError('parameter_invalid', 'Give email or phone, not both: a request is about one address.', 'phone');
  if (input.email === undefined && input.phone === undefined) throw new AppError('parameter_missing', 'Give the person\'s email or phone.', 'email');
  const kind = input.email !== undefined ? 'email' : 'phone';
  let key: string;
  try {
    key = normaliseRecipients([{ channel: kind === 'email' ? 'email' : 'sms', ...input }])[0]!.addressKey;
  } catch {
    throw new AppError('parameter_invalid', kind === 'email' ? 'email must be an e-mail address.' : 'phone must be an international number starting with + and the country code, e.g. +14155550123.', kind);
  }
  return { key, kind, sha256: sha256Hex(key) };
}
