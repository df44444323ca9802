import { useRef, useState, type PointerEvent } from 'react';
import type { FieldType } from '../api';
import { FIELD_TYPES } from './fields';

// Field types to add: drag one onto a page (mouse, pen or finger), or press it to choose it for
// drawing a box on the page; "Add to page" puts the chosen type in the middle of the view (keyboard).
// Pressing a type only chooses it: it used to add one as well, so choosing then drawing made two.

interface Props {
  drawType: FieldType;
  onChoose(type: FieldType): void;
  /** Dropped at a point of the screen; the builder finds the page under it. */
  onDrop(type: FieldType, clientX: number, clientY: number): boolean;
  onAdd(type: FieldType): void;
}

export function Palette({ drawType, onChoose, onDrop, onAdd }: Props) {
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null);
  const drag = useRef<{ type: FieldType; startX: number; startY: number; moved: boolean } | null>(null);
  // A drag ends with a click on the button too; that click must not add a second field.
  const suppressClick = useRef(false);

  const down = (e: PointerEvent<HTMLButtonElement>, type: FieldType) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { type, startX: e.clientX, startY: e.clientY, moved: false };
  };
  const move = (e: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.startX, e.clientY - d.startY) < 5) return;
    d.moved = true;
    setGhost({ type: d.type, x: e.clientX, y: e.clientY });
  };
  const up = (e: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    drag.current = null;
    setGhost(null);
    if (!d) return;
    if (d.moved) {
      suppressClick.current = true;
      onChoose(d.type);
      onDrop(d.type, e.clientX, e.clientY);
    }
  };

  return (
    <div className="palette" role="group" aria-label="Add a field">
      <p className="palette-help">Choose a type, then draw a box on the page; or drag a type onto the page.</p>
      <div className="palette-items">
        {FIELD_TYPES.map((t) => (
          <button
            key={t.type}
            type="button"
            className={`palette-item${drawType === t.type ? ' chosen' : ''}`}
            data-type={t.type}
            onPointerDown={(e) => down(e, t.type)}
            onPointerMove={move}
            onPointerUp={up}
            onPointerCancel={() => { drag.current = null; setGhost(null); }}
            onClick={() => {
              if (suppressClick.current) {
                suppressClick.current = false;
                return;
              }
              onChoose(t.type);
            }}
            aria-pressed={drawType === t.type}
          >
            <span className="palette-icon" aria-hidden="true">{t.icon}</span>
            <span>{t.label}<span className="visually-hidden"> field</span></span>
          </button>
        ))}
      </div>
      <button type="button" className="btn secondary small palette-add" onClick={() => onAdd(drawType)}>Add {FIELD_TYPES.find((t) => t.type === drawType)?.label ?? ''} field to the page</button>
      {ghost ? <div className="drag-ghost" style={{ left: `${ghost.x}px`, top: `${ghost.y}px` }} aria-hidden="true">{FIELD_TYPES.find((t) => t.type === ghost.type)?.label}</div> : null}
    </div>
  );
}
