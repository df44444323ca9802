import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { clampRect, signerColour, TYPE_LABEL, type EditField } from './fields';

// One page of the document: pdf.js draws it into a canvas at the builder's scale, and the template's
// fields sit over it as boxes. A box is moved by dragging it, resized by its corner handle, and both
// by the keyboard; dragging on empty page draws a new field.

export interface PageSize {
  width: number;
  height: number;
}

type Rect = { x: number; y: number; width: number; height: number };

interface Props {
  doc: PDFDocumentProxy;
  page: number;
  size: PageSize;
  scale: number;
  fields: EditField[];
  selected: string | null;
  drawLabel: string;
  onSelect(key: string | null): void;
  /** A gesture (move, resize) starts: the editor keeps the state before it for undo. */
  onGestureStart(): void;
  onLive(key: string, rect: Rect): void;
  onGestureEnd(changed: boolean): void;
  onDraw(page: number, rect: Rect): void;
  onBoxKey(e: KeyboardEvent<HTMLDivElement>, field: EditField): void;
}

export function PageView(p: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState(false);
  const [band, setBand] = useState<Rect | null>(null);
  const gesture = useRef<{ kind: 'move' | 'resize' | 'draw'; key?: string; startX: number; startY: number; origin: Rect; changed: boolean } | null>(null);

  useEffect(() => {
    let cancelled = false;
    let task: { cancel(): void; promise: Promise<void> } | undefined;
    void (async () => {
      const page = await p.doc.getPage(p.page);
      if (cancelled || !canvas.current) return;
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const viewport = page.getViewport({ scale: p.scale * ratio });
      const c = canvas.current;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      task = page.render({ canvas: c, canvasContext: c.getContext('2d')!, viewport });
      try {
        await task.promise;
        if (!cancelled) setRendered(true);
      } catch {
        // Cancelled by a newer rendering (resize): that one draws the page.
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [p.doc, p.page, p.scale]);

  const toPoints = (e: PointerEvent) => {
    const r = overlay.current!.getBoundingClientRect();
    return { x: (e.clientX - r.left) / p.scale, y: (e.clientY - r.top) / p.scale };
  };

  const startBox = (e: PointerEvent<HTMLDivElement>, f: EditField, kind: 'move' | 'resize') => {
    if (e.button !== 0) return;
    e.stopPropagation();
    e.preventDefault();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    p.onSelect(f.key);
    (kind === 'move' ? (e.currentTarget as HTMLElement) : (e.currentTarget.parentElement as HTMLElement)).focus({ preventScroll: true });
    const at = toPoints(e);
    gesture.current = { kind, key: f.key, startX: at.x, startY: at.y, origin: { x: f.x, y: f.y, width: f.width, height: f.height }, changed: false };
    p.onGestureStart();
  };

  const startDraw = (e: PointerEvent<HTMLDivElement>) => {
    // A finger on empty page scrolls it (phones): boxes are drawn with a mouse or a pen; by touch,
    // fields come from the palette and are then moved and resized on the page.
    if (e.button !== 0 || e.target !== overlay.current || e.pointerType === 'touch') return;
    e.preventDefault();
    overlay.current.setPointerCapture(e.pointerId);
    p.onSelect(null);
    const at = toPoints(e);
    gesture.current = { kind: 'draw', startX: at.x, startY: at.y, origin: { x: at.x, y: at.y, width: 0, height: 0 }, changed: false };
  };

  const move = (e: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g) return;
    const at = toPoints(e);
    const dx = at.x - g.startX;
    const dy = at.y - g.startY;
    if (Math.abs(dx) + Math.abs(dy) > 0.5) g.changed = true;
    if (g.kind === 'draw') {
      setBand({ x: Math.min(g.startX, at.x), y: Math.min(g.startY, at.y), width: Math.abs(dx), height: Math.abs(dy) });
    } else if (g.kind === 'move') {
      p.onLive(g.key!, clampRect({ ...g.origin, x: g.origin.x + dx, y: g.origin.y + dy }, p.size));
    } else {
      const width = Math.min(g.origin.width + dx, p.size.width - g.origin.x);
      const height = Math.min(g.origin.height + dy, p.size.height - g.origin.y);
      p.onLive(g.key!, clampRect({ ...g.origin, width, height }, p.size));
    }
  };

  const end = () => {
    const g = gesture.current;
    gesture.current = null;
    if (!g) return;
    if (g.kind === 'draw') {
      const r = band;
      setBand(null);
      // A click on empty page only clears the selection; a drawn box of some size makes a field.
      if (r && r.width * p.scale > 8 && r.height * p.scale > 6) p.onDraw(p.page, clampRect(r, p.size));
      return;
    }
    p.onGestureEnd(g.changed);
  };

  const px = (v: number) => `${v * p.scale}px`;
  return (
    <div className="pdf-page" style={{ width: px(p.size.width), height: px(p.size.height) }} data-page={p.page}>
      <canvas ref={canvas} className="pdf-canvas" style={{ width: px(p.size.width), height: px(p.size.height) }} role="img" aria-label={`Page ${p.page}`} />
      {!rendered ? <div className="page-loading" aria-hidden="true">Drawing page {p.page}…</div> : null}
      <div ref={overlay} className="overlay" onPointerDown={startDraw} onPointerMove={move} onPointerUp={end} onPointerCancel={end} title={`Drag on the page to draw a ${p.drawLabel} field`}>
        {p.fields.map((f) => {
          const selected = f.key === p.selected;
          const colour = signerColour(f.signer);
          return (
            <div
              key={f.key}
              className={`box type-${f.type}${selected ? ' selected' : ''}`}
              data-field={f.name}
              data-key={f.key}
              style={{ left: px(f.x), top: px(f.y), width: px(f.width), height: px(f.height), borderColor: colour, color: colour }}
              tabIndex={0}
              role="button"
              aria-pressed={selected}
              // The name starts with the text the box shows (its label, else its field name), as a voice user says it; the field name follows.
              aria-label={`${f.label || f.name}${f.label && f.label !== f.name ? ` (${f.name})` : ''}, ${TYPE_LABEL[f.type]} field for signer ${f.signer}${f.required ? ', required' : ''}. Arrow keys move it, Alt with arrow keys resizes it, Delete removes it.`}
              title={f.label && f.label !== f.name ? `${f.label} (field name: ${f.name})` : f.name}
              onPointerDown={(e) => startBox(e, f, 'move')}
              onPointerMove={move}
              onPointerUp={end}
              onPointerCancel={end}
              onFocus={() => p.onSelect(f.key)}
              onKeyDown={(e) => p.onBoxKey(e, f)}
            >
              <span className="box-name" style={{ backgroundColor: colour }}>{f.label || f.name}</span>
              {selected ? <div className="handle" aria-hidden="true" onPointerDown={(e) => startBox(e, f, 'resize')} onPointerMove={move} onPointerUp={end} onPointerCancel={end} /> : null}
            </div>
          );
        })}
        {band ? <div className="band" style={{ left: px(band.x), top: px(band.y), width: px(band.width), height: px(band.height) }} /> : null}
      </div>
    </div>
  );
}
