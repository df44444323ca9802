import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type Branding } from '../api';
import { accentFor, parseHexColour } from '../../../src/lib/colour-contrast';
import { brandingSaved, logoPath, useBranding, washOfHex } from '../branding';
import { useApp } from '../mode';
import { Notice, Spinner } from '../ui/ui';

// Settings → Branding (issue 42): the logo (PNG or SVG, at most 200 KB), the accent colour and the
// sender name the account's signing pages, e-mails, sealed PDFs' audit page and this dashboard show.
// The preview follows the form as it is edited; the server sanitises an SVG and darkens an accent that
// is under 4.5:1 against white, and the form then says what it changed.

const MAX_LOGO = 200 * 1024;
const DEFAULT_ACCENT = '#3b4fd8';

type LogoChoice = { kind: 'keep' } | { kind: 'remove' } | { kind: 'new'; contentType: 'image/png' | 'image/svg+xml'; data: string; preview: string; name: string };

function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

export function BrandingSettingsForm() {
  const { session } = useApp();
  const saved = useBranding();
  const [name, setName] = useState('');
  const [accent, setAccent] = useState(DEFAULT_ACCENT);
  const [useAccent, setUseAccent] = useState(false);
  const [logo, setLogo] = useState<LogoChoice>({ kind: 'keep' });
  const [error, setError] = useState<{ message: string; param?: string | undefined } | null>(null);
  const [result, setResult] = useState<Branding | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!saved) return;
    setName(saved.sender_name ?? '');
    setUseAccent(saved.accent_color !== null);
    setAccent(saved.accent_color_requested ?? saved.accent_color ?? DEFAULT_ACCENT);
  }, [saved]);

  const pick = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    const contentType = file.type === 'image/png' ? 'image/png' : file.type === 'image/svg+xml' || file.name.toLowerCase().endsWith('.svg') ? 'image/svg+xml' : null;
    if (!contentType) return setError({ message: 'The logo must be a PNG or SVG file.', param: 'logo.data' });
    if (file.size > MAX_LOGO) return setError({ message: `The logo is ${Math.ceil(file.size / 1024)} KB; at most 200 KB is accepted.`, param: 'logo.data' });
    // Previewed as a data: address (the page allows images from itself and data: only); an image
    // element runs no script, so an SVG not yet sanitised is safe to show here.
    const data = await readAsBase64(file);
    setLogo({ kind: 'new', contentType, data, preview: `data:${contentType};base64,${data}`, name: file.name });
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const body = {
        sender_name: name.trim() === '' ? null : name.trim(),
        accent_color: useAccent ? accent : null,
        ...(logo.kind === 'remove' ? { logo: null } : logo.kind === 'new' ? { logo: { content_type: logo.contentType, data: logo.data } } : {}),
      };
      const b = await api<Branding>('PUT', '/settings/branding', body);
      brandingSaved(b);
      setResult(b);
      setLogo({ kind: 'keep' });
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiError ? err.param : undefined });
    } finally {
      setBusy(false);
    }
  };

  if (!saved && !error) return <section className="card" aria-labelledby="branding-title"><h2 id="branding-title">Branding</h2><Spinner label="Loading…" /></section>;
  const previewLogo = logo.kind === 'new' ? logo.preview : logo.kind === 'remove' ? null : saved?.logo ? logoPath(saved.logo.url) : null;
  // The preview shows the colour the pages will use: the one typed, darkened by the server's own rule
  // (lib/colour-contrast.ts) when it is too light to read, so what is previewed is what is saved.
  const typed = useAccent ? parseHexColour(accent) : null;
  const choice = typed ? accentFor(typed) : null;
  const shown = choice?.color ?? DEFAULT_ACCENT;
  const sender = name.trim() || session.account.name;
  return (
    <section className="card" aria-labelledby="branding-title">
      <h2 id="branding-title">Branding</h2>
      <p className="muted">Your logo, colour and name on the signing pages, in every e-mail your forms send, in the header of the sealed PDF's audit page, and here.</p>
      <div className="branding-layout">
        <form onSubmit={(e) => void submit(e)} noValidate aria-label="Branding">
          <div className="field">
            <label htmlFor="brand-name">Sender name</label>
            <input id="brand-name" type="text" maxLength={100} value={name} placeholder={session.account.name} onChange={(e) => setName(e.target.value)} aria-describedby="brand-name-hint" aria-invalid={error?.param === 'sender_name' ? true : undefined} />
            <p className="hint" id="brand-name-hint">E-mails come from “{sender} via Formsign”. Empty: the account name.</p>
          </div>
          <fieldset className="field">
            <legend>Accent colour</legend>
            <label className="check"><input type="checkbox" checked={useAccent} onChange={(e) => setUseAccent(e.target.checked)} /> Use my colour</label>
            {useAccent ? (
              <div className="color-row">
                <input id="brand-accent-picker" type="color" value={accent} onChange={(e) => setAccent(e.target.value)} aria-label="Pick the accent colour" />
                <label htmlFor="brand-accent" className="visually-hidden">Accent colour as hex</label>
                <input id="brand-accent" type="text" value={accent} maxLength={7} pattern="#[0-9a-fA-F]{6}" onChange={(e) => setAccent(e.target.value)} aria-describedby="brand-accent-hint" aria-invalid={error?.param === 'accent_color' ? true : undefined} />
              </div>
            ) : null}
            {choice?.adjusted ? <p className="hint" role="status">{choice.requested} is too light to read on the pages: {choice.color} will be used (same hue, {choice.contrast}:1 on white).</p> : null}
            <p className="hint" id="brand-accent-hint">Buttons carry white text on it and links are written in it: a colour too light for 4.5:1 contrast is darkened (same hue) until it reads.</p>
          </fieldset>
          <div className="field">
            <label htmlFor="brand-logo">Logo <span className="muted">(PNG or SVG, at most 200 KB)</span></label>
            <input id="brand-logo" type="file" accept="image/png,image/svg+xml,.svg" onChange={(e) => void pick(e.target.files?.[0])} aria-invalid={error?.param === 'logo.data' ? true : undefined} />
            {saved?.logo && logo.kind !== 'new' ? <label className="check"><input type="checkbox" checked={logo.kind === 'remove'} onChange={(e) => setLogo(e.target.checked ? { kind: 'remove' } : { kind: 'keep' })} /> Remove the logo</label> : null}
          </div>
          {error ? <div className="note error" role="alert">{error.message}</div> : null}
          {result ? (
            <Notice tone="success">
              The branding is saved.
              {result.accent_adjusted ? ` Your colour ${result.accent_color_requested} is too light to read on the pages (4.5:1 is needed); it was darkened to ${result.accent_color} (${result.accent_contrast}:1 on white).` : ''}
              {result.logo?.removed && result.logo.removed.length > 0 ? ` From the SVG we removed: ${result.logo.removed.join(', ')}.` : ''}
            </Notice>
          ) : null}
          <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Saving…' : 'Save branding'}</button>
        </form>
        <figure className="brand-preview" aria-label="Preview of a signing page with this branding">
          <figcaption className="muted small">Preview</figcaption>
          <div className="brand-preview-bar">
            {previewLogo ? <img src={previewLogo} alt="" height={28} /> : null}
            <strong>{sender}</strong>
          </div>
          <div className="brand-preview-body">
            <p className="brand-preview-title">Rental agreement</p>
            <p className="small">{sender} asks you to review and sign this document.</p>
            <span className="brand-preview-button" style={{ background: shown, borderColor: shown }}>Review and sign</span>
            <p className="small"><span style={{ color: shown }}>Open the document (PDF)</span></p>
            <span className="brand-preview-badge" style={{ background: washOfHex(shown), color: shown }}>Signer 1</span>
          </div>
        </figure>
      </div>
    </section>
  );
}
