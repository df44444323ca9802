import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorMessage, type Field, type Form, type List, type Template } from '../api';
import { useApp } from '../mode';
import { roleName, type SignerRole } from '../roles';
import { Link, navigate } from '../router';
import { Empty, ErrorNote, PageTitle, Spinner } from '../ui/ui';
import { blankRecipient, RecipientsEditor, toSendRecipients, type RecipientDraft } from './RecipientsEditor';
import { defaultSendOptions, SendOptions, toSendOptions } from './SendOptions';

// Create and send from the dashboard: pick a template, fill what is known in an input per field type
// (the prefill; the server checks each value by the same rules as the API), add the recipients, send.
// Fields filled at signing (signature, initials, date signed) are left to the signer.

const AT_SIGNING = new Set<Field['type']>(['signature', 'initials', 'date_signed', 'attachment']);

export function NewForm() {
  const { mode } = useApp();
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [templateId, setTemplateId] = useState('');
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [name, setName] = useState('');
  const [rows, setRows] = useState<RecipientDraft[]>([blankRecipient()]);
  const [options, setOptions] = useState(defaultSendOptions);
  // The languages a recipient can be given (issue 42), as Settings lists them.
  const [languages, setLanguages] = useState<Array<{ tag: string; name: string }> | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<ApiError | Error | null>(null);

  useEffect(() => {
    document.title = 'New form · Formsign';
    api<List<Template>>('GET', `/${mode}/templates`).then((l) => {
      setTemplates(l.data);
      const wanted = new URLSearchParams(location.search).get('template');
      setTemplateId(l.data.find((t) => t.id === wanted)?.id ?? l.data[0]?.id ?? '');
    }, (e: unknown) => setLoadError(errorMessage(e)));
    api<{ languages: Array<{ tag: string; name: string }> }>('GET', '/settings/locale').then((l) => setLanguages(l.languages), () => setLanguages(undefined));
  }, [mode]);

  const template = templates?.find((t) => t.id === templateId);
  const prefillFields = template?.fields.filter((f) => !AT_SIGNING.has(f.type)) ?? [];

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!template) return;
    setBusy(true);
    setErr(null);
    const prefill: Record<string, unknown> = {};
    for (const f of prefillFields) {
      const v = values[f.name];
      if (v === undefined || v === '') continue;
      prefill[f.name] = f.type === 'number' && typeof v === 'string' ? Number(v) : v;
    }
    try {
      const form = await api<Form>('POST', `/${mode}/forms`, { template_id: template.id, prefill, ...(name.trim() ? { name: name.trim() } : {}) });
      const recipients = rows.filter((r) => r.address.trim());
      if (recipients.length > 0) {
        try {
          await api<Form>('POST', `/${mode}/forms/${form.id}/send`, { ...toSendOptions(options), recipients: toSendRecipients(recipients) });
        } catch (x) {
          // The draft exists; its page can send it once the recipients are right.
          navigate(`/dashboard/forms/${form.id}`);
          throw x;
        }
      }
      navigate(`/dashboard/forms/${form.id}`);
    } catch (x) {
      setErr(x instanceof Error ? x : new Error(errorMessage(x)));
      setBusy(false);
    }
  };

  if (loadError) return <ErrorNote>{loadError}</ErrorNote>;
  if (!templates) return <Spinner label="Loading templates…" />;
  if (templates.length === 0) {
    return (
      <>
        <PageTitle>New form</PageTitle>
        <Empty title="No templates yet"><p>A form is made from a template. <Link to="/dashboard/templates">Upload a PDF</Link> first, or <Link to="/dashboard/forms/generate">make one from a description</Link>.</p></Empty>
      </>
    );
  }
  const fieldError = (f: Field) => (err instanceof ApiError && err.param === `prefill.${f.name}` ? err.message : undefined);
  return (
    <>
      <p className="crumbs"><Link to="/dashboard/forms">← Forms</Link></p>
      <PageTitle>New form</PageTitle>
      <form className="new-form" onSubmit={(e) => void submit(e)} noValidate>
        <section className="card" aria-labelledby="nf-template">
          <h2 id="nf-template">1. Template</h2>
          <div className="upload-row">
            <div className="field grow">
              <label htmlFor="nf-template-id">Template</label>
              <select id="nf-template-id" value={templateId} onChange={(e) => { setTemplateId(e.target.value); setValues({}); }}>
                {templates.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
              </select>
            </div>
            <div className="field grow">
              <label htmlFor="nf-name">Form name <span className="muted">(optional)</span></label>
              <input id="nf-name" type="text" maxLength={200} value={name} placeholder={template?.name} onChange={(e) => setName(e.target.value)} />
            </div>
          </div>
          {template ? <p className="muted small">{template.signer_count} signer{template.signer_count === 1 ? '' : 's'}: {Array.from({ length: template.signer_count }, (_, i) => `${roleName(template.signers, i + 1)} (${template.fields.filter((f) => f.signer === i + 1).length} fields)`).join(', ')}.</p> : null}
        </section>
        <section className="card" aria-labelledby="nf-prefill">
          <h2 id="nf-prefill">2. What you already know <span className="muted">(optional)</span></h2>
          {prefillFields.length === 0 ? <p className="muted">This template has no fields to fill in advance.</p> : (
            <div className="prefill-grid">
              {prefillFields.map((f) => <PrefillInput key={f.name} field={f} roles={template?.signers} value={values[f.name]} error={fieldError(f)} onChange={(v) => setValues((o) => ({ ...o, [f.name]: v }))} />)}
            </div>
          )}
        </section>
        <section className="card" aria-labelledby="nf-send">
          <h2 id="nf-send">3. Who signs</h2>
          <p className="muted small">Leave the address empty to keep the form as a draft and send it later.</p>
          <RecipientsEditor rows={rows} onChange={setRows} signerCount={template?.signer_count ?? 1} roles={template?.signers} languages={languages} errorParam={err instanceof ApiError ? err.param : undefined} errorMessage={err?.message} />
          <SendOptions value={options} onChange={setOptions} idPrefix="nf-send" />
        </section>
        {err ? <div className="note error" role="alert">{err.message}</div> : null}
        <button type="submit" className="btn primary" disabled={busy || !template}>{busy ? 'Working…' : rows.some((r) => r.address.trim()) ? 'Create and send' : 'Create draft'}</button>
      </form>
    </>
  );
}

function PrefillInput({ field, roles, value, error, onChange }: { field: Field; roles: readonly SignerRole[] | undefined; value: string | boolean | undefined; error: string | undefined; onChange(v: string | boolean): void }) {
  const id = `pf-${field.name}`;
  const label = field.label || field.name;
  const described = error ? `${id}-error` : undefined;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described } as const;
  let input;
  if (field.type === 'checkbox') {
    return (
      <div className="field">
        <label className="check"><input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}</label>
        {error ? <p className="field-error" id={described}>{error}</p> : null}
      </div>
    );
  }
  if (field.type === 'radio' || field.type === 'select') {
    input = (
      <select {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {(field.options ?? []).map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
    );
  } else if (field.multiline) {
    input = <textarea {...common} rows={3} maxLength={field.max_length ?? undefined} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />;
  } else {
    const type = { number: 'number', date: 'date', email: 'email', phone: 'tel' }[field.type as string] ?? 'text';
    input = <input {...common} type={type} maxLength={field.max_length ?? undefined} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label} <span className="muted small">({field.type}{field.signer > 1 || roles?.some((r) => r.slot === field.signer) ? `, ${roleName(roles, field.signer)}` : ''})</span></label>
      {input}
      {error ? <p className="field-error" id={described}>{error}</p> : null}
    </div>
  );
}
