import { AppError } from '../errors.js';
import { isRole, ROLES, type Role } from '../../lib/member-roles.js';
import { isEmailAddress } from '../forms/value-rules.js';

// What the sign-up and sign-in forms accept, checked before anything is stored or hashed.

export const PASSWORD_MIN = 10;
// scrypt takes any length; this only bounds the work a request can ask for.
export const PASSWORD_MAX = 200;

export function normalizeEmail(value: unknown, param = 'email'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('parameter_missing', 'Enter your e-mail address.', param);
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !isEmailAddress(email)) throw new AppError('parameter_invalid', 'Enter a valid e-mail address, such as ada@example.com.', param);
  return email;
}

export function checkNewPassword(value: unknown, param = 'password'): string {
  if (typeof value !== 'string' || value === '') throw new AppError('parameter_missing', 'Choose a password.', param);
  if ([...value].length < PASSWORD_MIN) throw new AppError('parameter_invalid', `Choose a password of at least ${PASSWORD_MIN} characters.`, param);
  if ([...value].length > PASSWORD_MAX) throw new AppError('parameter_invalid', `A password can have at most ${PASSWORD_MAX} characters.`, param);
  return value;
}

/** A password as typed at sign-in: only its presence and size are checked (the hash decides the rest). */
export function givenPassword(value: unknown, param = 'password'): string {
  if (typeof value !== 'string' || value === '') throw new AppError('parameter_missing', 'Enter your password.', param);
  if ([...value].length > PASSWORD_MAX) throw new AppError('login_failed', 'The e-mail address or the password is wrong.');
  return value;
}

export function accountName(value: unknown, param = 'account_name'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('parameter_missing', 'Enter a name for your account, such as your company.', param);
  const name = value.trim();
  if ([...name].length > 200) throw new AppError('parameter_invalid', 'An account name can have at most 200 characters.', param);
  return name;
}

/** A member's role as given (the dashboard, the CLI): one of owner, admin, sender, viewer. */
export function checkRole(value: unknown, param = 'role'): Role {
  if (value === undefined || value === null || value === '') throw new AppError('parameter_missing', `Choose a role: ${ROLES.join(', ')}.`, param);
  if (!isRole(value)) throw new AppError('parameter_invalid', `role must be one of ${ROLES.join(', ')}.`, param);
  return value;
}
