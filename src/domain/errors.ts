// One table maps each contract error code to its HTTP status and type (CONTRACT.md Part B, "Errors");
// the domain throws AppError(code, …) and the HTTP layer renders it.

export const ERROR_CODES = {
  invalid_json: [400, 'invalid_request_error'],
  parameter_missing: [400, 'invalid_request_error'],
  parameter_invalid: [400, 'invalid_request_error'],
  parameter_unknown: [400, 'invalid_request_error'],
  pdf_invalid: [400, 'invalid_request_error'],
  pdf_encrypted: [400, 'invalid_request_error'],
  pdf_already_signed: [400, 'invalid_request_error'],
  language_unsupported: [400, 'invalid_request_error'],
  // Issue 41: a template's conditions or formulas read a missing field, or a field depends on itself.
  template_invalid: [400, 'invalid_request_error'],
  api_key_missing: [401, 'authentication_error'],
  api_key_invalid: [401, 'authentication_error'],
  // Issue 38, signer checks: the link asks for a code first; a wrong code; too many wrong codes.
  auth_required: [401, 'authentication_error'],
  auth_code_invalid: [400, 'invalid_request_error'],
  auth_locked: [429, 'rate_limit_error'],
  plan_required: [402, 'permission_error'],
  // Issue 42: a bulk send whose rows the month's remaining quota cannot cover (refused before any is sent).
  quota_exceeded: [402, 'permission_error'],
  resource_not_found: [404, 'not_found_error'],
  route_not_found: [404, 'not_found_error'],
  method_not_allowed: [405, 'invalid_request_error'],
  form_already_sent: [409, 'conflict_error'],
  form_not_signed: [409, 'conflict_error'],
  form_expired: [409, 'conflict_error'],
  form_not_sendable: [409, 'conflict_error'],
  idempotency_key_reused: [409, 'conflict_error'],
  idempotency_key_in_use: [409, 'conflict_error'],
  // After sending (issue #23): a link of a sequential form before its turn; void of a form past sending.
  not_your_turn: [409, 'conflict_error'],
  form_not_voidable: [409, 'conflict_error'],
  // Issue 25: POST /forms/{id}/reseal of a form whose sealing has not failed.
  form_not_resealable: [409, 'conflict_error'],
  // Issue 35: a template's or form's stored source PDF is gone from the file store (nothing to read).
  source_pdf_missing: [409, 'conflict_error'],
  // Issue 40: DELETE of a form in flight (void it first); DELETE or a purge of a form on legal hold.
  form_not_deletable: [409, 'conflict_error'],
  form_on_hold: [409, 'conflict_error'],
  link_expired: [410, 'invalid_request_error'],
  // Issue 38: a signing link replaced by a new one (the recipient was corrected or passed the form on).
  link_replaced: [410, 'invalid_request_error'],
  payload_too_large: [413, 'invalid_request_error'],
  unsupported_media_type: [415, 'invalid_request_error'],
  // Issue 35 (CONTRACT Part E): a PDF whose inspection exceeds its CPU or memory bound.
  pdf_too_complex: [422, 'invalid_request_error'],
  // Issue 41: a Word or OpenDocument upload LibreOffice cannot convert (or is not installed to convert).
  document_unconvertible: [422, 'invalid_request_error'],
  rate_limited: [429, 'rate_limit_error'],
  monthly_quota_exceeded: [429, 'rate_limit_error'],
  reminder_too_soon: [429, 'rate_limit_error'],
  internal_error: [500, 'api_error'],
  service_unavailable: [503, 'api_error'],
  // Issue 26 (defect 12): the disk that holds the data is full; with Retry-After.
  storage_unavailable: [503, 'api_error'],
  // The dashboard's own API (/dashboard/api), beside the contract's: sessions instead of keys.
  session_required: [401, 'authentication_error'],
  login_failed: [401, 'authentication_error'],
  csrf_token_invalid: [403, 'permission_error'],
  // Issue 39 (CONTRACT Part E): the member's role does not allow this dashboard call.
  permission_denied: [403, 'permission_error'],
  email_taken: [409, 'conflict_error'],
  // Issue 39 items 3 and 4: single sign-on and two-factor sign-in (the dashboard's own codes).
  /** The session has its password step only: the second factor (or enrolling one) comes first. */
  two_factor_required: [401, 'authentication_error'],
  /** The provider's sign-in did not complete: unknown or spent attempt, wrong state or nonce, refused code. */
  sso_failed: [401, 'authentication_error'],
  /** No single sign-on for this address: none configured, or its domain claimed by no account. */
  sso_not_available: [403, 'permission_error'],
  /** The account signs in through its identity provider only: no password. */
  sso_required: [403, 'permission_error'],
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorType = (typeof ERROR_CODES)[ErrorCode][1];

export class AppError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    [this.status, this.type] = ERROR_CODES[code];
  }
}

export function notFound(kind: string, id: string, param?: string): AppError {
  return new AppError('resource_not_found', `No ${kind} with id '${id}' exists.`, param);
}

/** The stored source PDF of a template or form is gone from the file store: the caller's request cannot be served, and retrying will not help. */
export function sourcePdfMissing(kind: 'template' | 'form', id: string): AppError {
  return new AppError('source_pdf_missing', `The source PDF of ${kind} '${id}' is missing from the file store, so there is nothing to read. Restore the file${kind === 'template' ? ' or upload the template again' : ''}.`);
}
