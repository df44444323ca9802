import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { checkPage, followNav, openWatched, signUpInPage, startBrowserStage, type BrowserStage, type Watched } from '../dashboard/browser-support.js';
import { PASSWORD, uniqueEmail } from '../dashboard/support.js';

// Issue 39 in Chromium at 1280 and 390 px (test-results/teams/): the owner invites a sender and a
// viewer from Settings → Members; each joins from the e-mailed link, sets a password and sees only
// what their role allows; the activity log shows all of it; a removed member's open tab loses access
// at its next request.

const SHOTS = path.resolve('test-results', 'teams');

describe('teams in the browser', () => {
  let stage: BrowserStage;
  let browser: Browser;
  let origin: string;

  before(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    stage = await startBrowserStage({}, { worker: true });
    ({ browser, origin } = stage);
  });
  after(() => stage?.close());

  const check = (w: Watched, name: string) => checkPage(w, SHOTS, name);

  /** The invitation link of the e-mail to the address, once the outbox delivered it (the dev outbox's store). */
  async function invitationLink(email: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const row = await stage.h.deps.domain.db.selectFrom('messages').select(['text', 'status']).where('to_address', '=', email).where('kind', '=', 'member_invitation').executeTakeFirst();
      if (row?.status === 'delivered') return /(http:\/\/\S+\/dashboard\/join#[A-Za-z0-9_-]{43})/.exec(row.text)?.[1] ?? assert.fail(row.text);
      await new Promise((r) => setTimeout(r, 100));
    }
    return assert.fail(`no invitation to ${email} was delivered`);
  }

  async function navLinks(page: Page): Promise<string[]> {
    const menu = page.getByRole('button', { name: 'Menu' });
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
    const links = await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents();
    if (await menu.isVisible()) await menu.click();
    return links;
  }

  async function invite(page: Page, email: string, role: string): Promise<void> {
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption(role);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${email}.`).waitFor();
    await page.getByRole('region', { name: 'Open invitations' }).first().getByText(email).waitFor();
  }

  async function join(w: Watched, link: string, account: string, role: string): Promise<void> {
    await w.page.goto(link);
    await w.page.getByRole('heading', { name: `Join ${account}` }).waitFor();
    assert.equal(new URL(w.page.url()).hash, '', 'the token leaves the address bar at once');
    await w.page.getByText(`You are invited as ${role}`).waitFor();
    await check(w, `join-${role}`);
    await w.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await w.page.getByLabel('The same password again').fill(PASSWORD);
    await w.page.getByRole('button', { name: 'Join and sign in' }).click();
    await w.page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
  }

  it('the owner invites a sender and a viewer; each sees what the role allows; the activity log shows it all', async () => {
    const ownerEmail = uniqueEmail('owner');
    const senderEmail = uniqueEmail('sender');
    const viewerEmail = uniqueEmail('viewer');
    const owner = await openWatched(browser, origin, 1280);
    await owner.page.goto(`${origin}/dashboard/signup`);
    await signUpInPage(owner.page, ownerEmail, 'Lovelace & Co');
    assert.deepEqual(await navLinks(owner.page), ['Forms', 'Bulk send', 'Templates', 'Webhooks', 'API keys', 'Usage', 'Outbox', 'Settings', 'API reference']);

    await followNav(owner.page, 'Settings');
    await owner.page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click();
    await owner.page.getByRole('heading', { name: 'Invite a member' }).waitFor();
    await invite(owner.page, senderEmail, 'sender');
    await invite(owner.page, viewerEmail, 'viewer');
    await check(owner, 'members-invited');

    // The sender joins on a phone.
    const sender = await openWatched(browser, origin, 390);
    await join(sender, await invitationLink(senderEmail), 'Lovelace & Co', 'sender');
    assert.deepEqual(await navLinks(sender.page), ['Forms', 'Bulk send', 'Templates', 'Webhooks', 'Settings', 'API reference']);
    await sender.page.getByRole('heading', { name: 'Upload a PDF' }).waitFor();
    await followNav(sender.page, 'Forms');
    await sender.page.getByRole('link', { name: 'New form' }).waitFor();
    await followNav(sender.page, 'Settings');
    await sender.page.getByText('Your role').waitFor();
    assert.equal(await sender.page.getByRole('navigation', { name: 'Settings' }).count(), 0, 'no Members or Activity for a sender');
    assert.equal(await sender.page.getByLabel('Account name').count(), 0, 'no account settings for a sender');
    await check(sender, 'settings-sender');

    // The viewer joins at 1280: reads only.
    const viewer = await openWatched(browser, origin, 1280);
    await join(viewer, await invitationLink(viewerEmail), 'Lovelace & Co', 'viewer');
    assert.deepEqual(await navLinks(viewer.page), ['Forms', 'Templates', 'Settings', 'API reference']);
    assert.equal(await viewer.page.getByRole('heading', { name: 'Upload a PDF' }).count(), 0, 'no upload for a viewer');
    await check(viewer, 'templates-viewer');
    await followNav(viewer.page, 'Forms');
    await viewer.page.getByRole('heading', { name: 'Forms', level: 1 }).waitFor();
    assert.equal(await viewer.page.getByRole('link', { name: 'New form' }).count(), 0, 'no New form for a viewer');
    await check(viewer, 'forms-viewer');

    // The owner's Members page lists all three with their roles; the viewer becomes a sender.
    await owner.page.reload();
    const table = owner.page.getByRole('region', { name: 'Members' }).first();
    await table.getByText(senderEmail).waitFor();
    await table.getByText(viewerEmail).waitFor();
    assert.equal(await owner.page.getByRole('region', { name: 'Open invitations' }).count(), 0, 'both invitations used');
    const relisted = () => owner.page.waitForResponse((r) => r.url().endsWith('/dashboard/api/members') && r.request().method() === 'GET');
    await Promise.all([relisted(), owner.page.getByLabel(`Role of ${viewerEmail}`).selectOption('sender')]);
    assert.equal(await owner.page.getByLabel(`Role of ${viewerEmail}`).inputValue(), 'sender');
    await check(owner, 'members');
    const phone = await openWatched(browser, origin, 390, { storageState: await owner.context.storageState() });
    await phone.page.goto(`${origin}/dashboard/settings/members`);
    await phone.page.getByRole('region', { name: 'Members' }).first().getByText(viewerEmail).waitFor();
    await check(phone, 'members');

    // The removed sender's open tab loses access at its next request.
    await owner.page.getByRole('button', { name: `Remove ${senderEmail}` }).click();
    await Promise.all([relisted(), owner.page.getByRole('button', { name: 'Remove now' }).click()]);
    assert.equal(await table.getByText(senderEmail).count(), 0);
    await followNav(sender.page, 'Templates');
    await sender.page.getByText('Your session ended. Sign in again to continue.').waitFor();
    sender.problems.splice(0, sender.problems.length, ...sender.problems.filter((p) => !/^401 GET .*\/dashboard\/api\/test\/templates|Failed to load resource.*401/.test(p)));
    assert.deepEqual(sender.problems, []);

    // The activity log shows all of it, filtered by kind and member too.
    await owner.page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Activity' }).click();
    const log = owner.page.getByRole('region', { name: 'Activity' }).first();
    await log.getByText('Member removed').waitFor();
    const kinds = await log.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')));
    for (const k of ['member.signed_in', 'member.invited', 'member.joined', 'member.role_changed', 'member.removed']) assert.ok(kinds.includes(k), `${k} in ${kinds.join(', ')}`);
    assert.equal(kinds.filter((k) => k === 'member.invited').length, 2);
    assert.equal(kinds.filter((k) => k === 'member.joined').length, 2);
    await log.getByText('viewer → sender').waitFor();
    await check(owner, 'activity');
    await owner.page.getByLabel('What', { exact: true }).selectOption('member.joined');
    await Promise.all([
      owner.page.waitForResponse((r) => r.url().includes('/dashboard/api/activity?') && r.url().includes('kind=member.joined')),
      owner.page.getByRole('button', { name: 'Filter' }).click(),
    ]);
    await owner.page.waitForTimeout(100);
    assert.deepEqual((await log.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')))), ['member.joined', 'member.joined']);
    await owner.page.getByLabel('Member', { exact: true }).selectOption({ label: viewerEmail });
    await owner.page.getByLabel('What', { exact: true }).selectOption('');
    await Promise.all([
      owner.page.waitForResponse((r) => r.url().includes('/dashboard/api/activity?') && r.url().includes('member=')),
      owner.page.getByRole('button', { name: 'Filter' }).click(),
    ]);
    await owner.page.waitForTimeout(100);
    const who = await log.locator('tbody tr td:nth-child(2)').allTextContents();
    assert.ok(who.length >= 2 && who.every((t) => t === viewerEmail), who.join(', '));
    await phone.page.goto(`${origin}/dashboard/settings/activity`);
    await phone.page.getByRole('region', { name: 'Activity' }).first().getByText('Member removed').waitFor();
    await check(phone, 'activity');

    for (const w of [owner, sender, viewer, phone]) await w.context.close();
  });
});
