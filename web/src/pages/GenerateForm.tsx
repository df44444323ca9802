import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage, type Form } from '../api';
import { openPdf } from '../builder/pdf';
import { useApp } from '../mode';
import { Link } from '../router';
import { ErrorNote, Notice, PageTitle, Spinner } from '../ui/ui';

// "New form from a description" (POST /forms/generate): a sentence or a list becomes a draft form
// with typed fields on a generated PDF, previewed here (first page, drawn by pdf.js) before sending.

const EXAMPLE = 'Rental application: full name, email, phone, move-in date, monthly income, pets (yes or no). Tenant and landlord sign.';

export function GenerateForm() {
  const { mode } = useApp();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  useEffect(() => {
    document.title = 'Form from a description · Formsign';
  }, []);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const prompt = String(data.get('prompt') ?? '').trim();
    const pageSize = String(data.get('page_size') ?? 'letter');
    if (!prompt) {
      setError('Describe the form first: what it is for, its fields, who signs.');
      return;
    }
    setBusy(true);
    setError(null);
    setForm(null);
    try {
      setForm(await api<Form>('POST', `/${mode}/forms/generate`, { prompt, page_size: pageSize }));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p className="crumbs"><Link to="/dashboard/forms">← Forms</Link></p>
      <PageTitle>New form from a description</PageTitle>
      <form className="card" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label htmlFor="gen-prompt">Describe the form</label>
          <textarea id="gen-prompt" name="prompt" rows={4} maxLength={4000} defaultValue={EXAMPLE} aria-describedby="gen-help" />
          <p className="hint" id="gen-help">Name its purpose, list its fields (with their kind where it matters: a date, yes or no, a choice of…), and say who signs. English, Spanish, French, German, Italian or Portuguese.</p>
        </div>
        <fieldset className="field radio-group">
          <legend>Page size</legend>
          <label><input type="radio" name="page_size" value="letter" defaultChecked /> Letter</label>
          <label><input type="radio" name="page_size" value="a4" /> A4</label>
        </fieldset>
        {error ? <div className="note error" role="alert">{error}</div> : null}
        <button type="submit" className="btn primary" disabled={busy}>{busy ? 'Making the form…' : 'Make the form'}</button>
      </form>
      {form ? (
        <section className="section" aria-labelledby="gen-result">
          <h2 id="gen-result">{form.name}</h2>
          <Notice tone="success">A draft form with {form.fields.length} fields. Check the preview, then open it to send it.</Notice>
          <p><Link to={`/dashboard/forms/${form.id}`} className="btn primary">Open the form to send it</Link></p>
          <PdfPreview url={`/dashboard/api/${mode}/forms/${form.id}/pdf`} title={form.name ?? "the form"} />
        </section>
      ) : null}
    </>
  );
}

/** The first page of a PDF as an image (pdf.js into a canvas; the dashboard's policy allows no plugin frame). */
export function PdfPreview({ url, title }: { url: string; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | string>('loading');
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const doc = await openPdf(url);
        const page = await doc.getPage(1);
        const viewport = page.getViewport({ scale: 1.4 });
        const c = canvas.current;
        if (!c || cancelled) return;
        c.width = viewport.width;
        c.height = viewport.height;
        await page.render({ canvasContext: c.getContext('2d')!, viewport, canvas: c }).promise;
        if (!cancelled) setState('ready');
      } catch (err) {
        if (!cancelled) setState(errorMessage(err));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [url]);
  return (
    <figure className="pdf-preview">
      {state === 'loading' ? <Spinner label="Drawing the preview…" /> : null}
      {state !== 'loading' && state !== 'ready' ? <ErrorNote>{state}</ErrorNote> : null}
      <canvas ref={canvas} role="img" aria-label={`First page of ${title}`} />
      <figcaption><a href={url} target="_blank" rel="noopener">Open the whole PDF</a></figcaption>
    </figure>
  );
}
