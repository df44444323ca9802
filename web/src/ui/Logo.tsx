export function Logo() {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" width="28" height="28">
      <rect width="32" height="32" rx="7" fill="#3b4fd8" />
      <path d="M10 7h9l5 5v13a1 1 0 0 1-1 1H10a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" fill="#fff" />
      <path d="M19 7v5h5" fill="#c9cff8" />
      <path d="M12 21c1.5-2.5 2.5-2.5 3 0s1.6 2 3.2-.6" stroke="#3b4fd8" strokeWidth="1.6" fill="none" strokeLinecap="round" />
      <path d="M12 16h8" stroke="#c9cff8" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
