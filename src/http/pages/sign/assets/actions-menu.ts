// The actions menu (actions-menu.ts on the server): Decline and Finish later run through their own
// controls (decline.ts's dialog, draft.ts's button), which may sit out of sight (guided mode shows
// only its sheet); the menu closes on a choice, on Escape and on a click elsewhere.
const menu = document.getElementById('actions-menu') as HTMLDetailsElement | null;

if (menu) {
  const run: Record<string, string> = { decline: 'decline-open', later: 'finish-later' };
  menu.addEventListener('click', (e) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (!item) return;
    menu.open = false;
    document.getElementById(run[item.dataset['action'] ?? ''] ?? '')?.click();
  });
  menu.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menu.open) return;
    menu.open = false;
    menu.querySelector('summary')?.focus();
  });
  document.addEventListener('click', (e) => {
    if (menu.open && !menu.contains(e.target as Node)) menu.open = false;
  });
}
