import { createHash } from 'node:crypto';
import { findBranding, findLogoBySha256, saveBranding } from '../../db/repositories/branding.js';
import type { AccountBrandingRow } from '../../db/tables.js';
import { isoNow } from '../../lib/clock.js';
import type { DomainDeps } from '../context.js';
import { AppError } from '../errors.js';
import { oneLine } from '../sending/message-layout.js';
import { accentFor, contrastOnWhite, parseHexColour } from '../../lib/colour-contrast.js';
import { imageProblem, type ImageLimits } from '../signing/attachments/attachment-file.js';
import { sanitiseSvg } from './sanitise-svg.js';

// An account's brand (issue 42 item 4): read and set through the API (`getBranding`, `updateBranding`)
// and the dashboard's Settings → Branding, applied by brand-look.ts wherever the account shows itself.

export const MAX_LOGO_BYTES = 200 * 1024;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const LOGO_PATH = '/brand/logo/';
/**
 * A PNG logo is drawn into the seal of every form of the account (pdf-lib inflates it whole), so its
 * declared size is bounded far below an attachment's, and its data must unpack to no more than that.
 */
const LOGO_LIMITS: ImageLimits = { maxSide: 2000, maxPixels: 2000 * 2000, said: '2000×2000 pixels' };

type LogoType = NonNullable<AccountBrandingRow['logo_type']>;

export interface BrandingView {
  object: 'branding';
  logo: { content_type: LogoType; url: string; size: number; sha256: string; removed?: string[] } | null;
  accent_color: string | null;
  accent_color_requested: string | null;
  accent_adjusted: boolean;
  accent_contrast: number | null;
  sender_name: string | null;
  updated_at: string | null;
}

export interface BrandingInput {
  logo?: { content_type: LogoType; data: string } | null | undefined;
  accent_color?: string | null | undefined;
  sender_name?: string | null | undefined;
}

/** The logo's public address (content-addressed, so it can be cached for good). */
export function logoUrl(baseUrl: string, row: Pick<AccountBrandingRow, 'logo_type' | 'logo_sha256'>): string | null {
  if (!row.logo_type || !row.logo_sha256) return null;
  return `${baseUrl}${LOGO_PATH}${row.logo_sha256}.${row.logo_type === 'image/png' ? 'png' : 'svg'}`;
}

export function presentBranding(baseUrl: string, row: AccountBrandingRow | undefined, removed?: string[]): BrandingView {
  const url = row ? logoUrl(baseUrl, row) : null;
  const accent = row?.accent_color ? parseHexColour(row.accent_color) : null;
  return {
    object: 'branding',
    logo: row && url && row.logo && row.logo_type && row.logo_sha256
      ? { content_type: row.logo_type, url, size: logoBytes(row.logo_type, row.logo).byteLength, sha256: row.logo_sha256, ...(removed ? { removed } : {}) }
      : null,
    accent_color: row?.accent_color ?? null,
    accent_color_requested: row?.accent_requested ?? null,
    accent_adjusted: row?.accent_color !== row?.accent_requested,
    accent_contrast: accent ? Math.floor(contrastOnWhite(accent) * 100) / 100 : null,
    sender_name: row?.sender_name ?? null,
    updated_at: row?.updated_at ?? null,
  };
}

/** The bytes of a stored logo as served: PNG from its base64, SVG as its text. */
export function logoBytes(type: LogoType, stored: string): Buffer {
  return type === 'image/png' ? Buffer.from(stored, 'base64') : Buffer.from(stored, 'utf8');
}

/** A logo by its public address's SHA-256: its type and bytes as served; undefined when none has it. */
export async function readLogo(deps: Pick<DomainDeps, 'db'>, sha256: string): Promise<{ type: LogoType; bytes: Buffer } | undefined> {
  const found = await findLogoBySha256(deps.db, sha256);
  return found?.logo && found.logo_type ? { type: found.logo_type, bytes: logoBytes(found.logo_type, found.logo) } : undefined;
}

export async function getBranding(deps: Pick<DomainDeps, 'db' | 'baseUrl'>, accountId: string): Promise<BrandingView> {
  return presentBranding(deps.baseUrl, await findBranding(deps.db, accountId));
}

export async function updateBranding(deps: Pick<DomainDeps, 'db' | 'transact' | 'clock' | 'baseUrl'>, accountId: string, input: BrandingInput): Promise<BrandingView> {
  const logo = input.logo === undefined ? undefined : input.logo === null ? null : checkLogo(input.logo);
  const accent = input.accent_color === undefined || input.accent_color === null ? input.accent_color : checkAccent(input.accent_color);
  const senderName = input.sender_name === undefined || input.sender_name === null ? input.sender_name : checkSenderName(input.sender_name);
  const now = isoNow(deps.clock);
  const row = await deps.transact(async (trx) => {
    const current = await findBranding(trx, accountId);
    const next: AccountBrandingRow = {
      account_id: accountId,
      logo_type: current?.logo_type ?? null, logo: current?.logo ?? null, logo_sha256: current?.logo_sha256 ?? null,
      accent_color: current?.accent_color ?? null, accent_requested: current?.accent_requested ?? null,
      sender_name: current?.sender_name ?? null, updated_at: now,
    };
    if (logo !== undefined) Object.assign(next, logo === null ? { logo_type: null, logo: null, logo_sha256: null } : { logo_type: logo.type, logo: logo.stored, logo_sha256: logo.sha256 });
    if (accent !== undefined) Object.assign(next, accent === null ? { accent_color: null, accent_requested: null } : { accent_color: accent.color, accent_requested: accent.requested });
    if (senderName !== undefined) next.sender_name = senderName;
    await saveBranding(trx, next);
    return next;
  });
  return presentBranding(deps.baseUrl, row, logo ? logo.removed : undefined);
}

function checkLogo(input: { content_type: LogoType; data: string }): { type: LogoType; stored: string; sha256: string; removed: string[] } {
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(input.data)) throw new AppError('parameter_invalid', 'logo.data must be the file as base64.', 'logo.data');
  const bytes = Buffer.from(input.data, 'base64');
  if (bytes.byteLength === 0) throw new AppError('parameter_invalid', 'logo.data is empty: send the PNG or SVG file as base64.', 'logo.data');
  if (bytes.byteLength > MAX_LOGO_BYTES) throw new AppError('payload_too_large', `The logo is ${Math.ceil(bytes.byteLength / 1024)} KB; at most 200 KB is accepted.`, 'logo.data');
  if (input.content_type === 'image/png') {
    if (!bytes.subarray(0, 8).equals(PNG_MAGIC) || bytes.toString('latin1', 12, 16) !== 'IHDR') {
      throw new AppError('parameter_invalid', 'logo.data is not a PNG file (its first bytes are not a PNG signature and header).', 'logo.data');
    }
    const problem = imageProblem('image/png', bytes, LOGO_LIMITS);
    if (problem) throw new AppError('parameter_invalid', `The PNG logo ${problem}.`, 'logo.data');
    return { type: 'image/png', stored: bytes.toString('base64'), sha256: sha256(bytes), removed: [] };
  }
  const text = bytes.toString('utf8');
  if (text.includes('\u0000')) throw new AppError('parameter_invalid', 'logo.data is not an SVG file (it is binary).', 'logo.data');
  const { svg, removed } = sanitiseSvg(text);
  if (!svg.startsWith('<svg')) throw new AppError('parameter_invalid', 'logo.data is not an SVG file: its root element must be <svg>.', 'logo.data');
  return { type: 'image/svg+xml', stored: svg, sha256: sha256(Buffer.from(svg, 'utf8')), removed };
}

function checkAccent(text: string): { color: string; requested: string } {
  const rgb = parseHexColour(text);
  if (!rgb) throw new AppError('parameter_invalid', 'accent_color must be a colour as #rgb or #rrggbb, e.g. #0b5cad.', 'accent_color');
  const choice = accentFor(rgb);
  return { color: choice.color, requested: choice.requested };
}

function checkSenderName(text: string): string {
  const name = oneLine(text);
  if (name === '') throw new AppError('parameter_invalid', 'sender_name must not be blank; send null to use the account name.', 'sender_name');
  if ([...name].length > 100) throw new AppError('parameter_invalid', 'sender_name must be at most 100 characters.', 'sender_name');
  return name;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
