// The confirmation page while the signed copy is being sealed: look again every few seconds (a
// script, not a meta refresh, which would interrupt screen readers mid-page without warning).
setTimeout(() => window.location.reload(), 5000);
