// FieldDef rectangles are in PDF points with the origin at the top-left of the page as a viewer
// shows it; PDF itself measures from the bottom-left of the MediaBox, before /Rotate. These helpers
// convert both ways, so the inspector and the renderer agree on where a field is.
import type { PDFPage } from '@cantoo/pdf-lib';

export interface Rect { x: number; y: number; width: number; height: number }
interface Frame { x0: number; y0: number; w: number; h: number; rotation: 0 | 90 | 180 | 270 }

const round2 = (n: number): number => Math.round(n * 100) / 100;

function frameOf(page: PDFPage): Frame {
  const media = page.getMediaBox();
  const crop = page.getCropBox();
  // A CropBox larger than the MediaBox is clipped by viewers, so only the overlap is visible.
  const x0 = Math.max(media.x, crop.x);
  const y0 = Math.max(media.y, crop.y);
  const x1 = Math.min(media.x + media.width, crop.x + crop.width);
  const y1 = Math.min(media.y + media.height, crop.y + crop.height);
  const angle = ((page.getRotation().angle % 360) + 360) % 360;
  const rotation = angle === 90 || angle === 180 || angle === 270 ? angle : 0;
  return { x0, y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0), rotation };
}

/** The page's size as displayed (width and height swap on quarter turns). */
export function displaySize(page: PDFPage): { width: number; height: number } {
  const f = frameOf(page);
  return f.rotation === 90 || f.rotation === 270 ? { width: f.h, height: f.w } : { width: f.w, height: f.h };
}

function userToDisplay(f: Frame, px: number, py: number): [number, number] {
  const u = px - f.x0;
  const v = py - f.y0;
  switch (f.rotation) {
    case 90: return [v, u];
    case 180: return [f.w - u, v];
    case 270: return [f.h - v, f.w - u];
    default: return [u, f.h - v];
  }
}

function displayToUser(f: Frame, dx: number, dy: number): [number, number] {
  switch (f.rotation) {
    case 90: return [f.x0 + dy, f.y0 + dx];
    case 180: return [f.x0 + f.w - dx, f.y0 + dy];
    case 270: return [f.x0 + f.w - dy, f.y0 + f.h - dx];
    default: return [f.x0 + dx, f.y0 + f.h - dy];
  }
}

function boundsOf(points: Array<[number, number]>): Rect {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** A PDF /Rect (any corner order) → top-left display coordinates, rounded to 2 decimals. */
export function rectToTopLeft(page: PDFPage, corners: readonly [number, number, number, number]): Rect {
  const f = frameOf(page);
  const [ax, ay, bx, by] = corners;
  const r = boundsOf([userToDisplay(f, ax, ay), userToDisplay(f, bx, by)]);
  return { x: round2(r.x), y: round2(r.y), width: round2(r.width), height: round2(r.height) };
}

/** Top-left display coordinates → a bottom-left PDF rectangle in user space. */
export function rectFromTopLeft(page: PDFPage, r: Rect): Rect {
  const f = frameOf(page);
  return boundsOf([displayToUser(f, r.x, r.y), displayToUser(f, r.x + r.width, r.y + r.height)]);
}

/** A display point → user space, plus the rotation text needs there to read upright. */
export function pointFromTopLeft(page: PDFPage, dx: number, dy: number): { x: number; y: number; rotation: number } {
  const f = frameOf(page);
  const [x, y] = displayToUser(f, dx, dy);
  return { x, y, rotation: f.rotation };
}
