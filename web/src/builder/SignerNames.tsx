import { signerColour } from './fields';

// The builder's "Signers" panel: a name for each signer slot the fields use ("Tenant", "Landlord"),
// saved with the template and shown to the sender next to each recipient when sending.

interface Props {
  slots: number;
  names: Readonly<Record<number, string>>;
  onChange(slot: number, name: string): void;
}

export function SignerNames({ slots, names, onChange }: Props) {
  return (
    <div className="signer-names" role="group" aria-labelledby="signer-names-title">
      <h2 className="panel-title" id="signer-names-title">Signers</h2>
      <p className="palette-help">Name each signer's role; the sender sees it when choosing who signs.</p>
      {Array.from({ length: slots }, (_, i) => i + 1).map((slot) => (
        <div className="signer-name" key={slot}>
          <span className="swatch" style={{ backgroundColor: signerColour(slot) }} aria-hidden="true" />
          <label htmlFor={`signer-name-${slot}`} className="visually-hidden">Role of signer {slot}</label>
          <input id={`signer-name-${slot}`} type="text" maxLength={120} value={names[slot] ?? ''} placeholder={slot === 1 ? 'Signer 1, e.g. Tenant' : `Signer ${slot}`} onChange={(e) => onChange(slot, e.target.value)} />
        </div>
      ))}
    </div>
  );
}
