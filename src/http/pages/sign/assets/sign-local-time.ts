// Times on the signing pages are written by the server in UTC (it does not know the signer's time
// zone); here each is rewritten in the browser's own zone, in the page's language, naming the zone.
const locale = document.documentElement.lang || undefined;
let format: Intl.DateTimeFormat | null;
try {
  format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
} catch {
  format = null;
}
if (format) {
  for (const el of document.querySelectorAll('time[data-local="datetime"]')) {
    const d = new Date(el.getAttribute('datetime') ?? '');
    if (!Number.isNaN(d.getTime())) el.textContent = format.format(d);
  }
}
