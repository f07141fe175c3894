import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReceivedMail } from '../server/test/smtp';
import { saveScreenshot } from './fixtures';

/** The mailbox's HTTP side: the app's port + 2000 (playwright.config.ts, MAIL_HTTP_PORT). */
const MAIL_HTTP_PORT = Number(process.env.E2E_PORT ?? '4173') + 2000;

/** A mail as the tests' mailbox (e2e/mail-sink.ts) parsed it (its raw text left out). */
export type SinkMail = Omit<ReceivedMail, 'raw'>;

/** Every mail the app has sent so far (to the tests' mailbox). */
export async function allMails(request: APIRequestContext): Promise<SinkMail[]> {
  const res = await request.get(`http://127.0.0.1:${MAIL_HTTP_PORT}/mails`);
  expect(res.status()).toBe(200);
  return (await res.json()) as SinkMail[];
}

/** The mails to this address, waiting until there are at least `count` (mail goes out after the answer). */
export async function mailsTo(request: APIRequestContext, address: string, count = 1): Promise<SinkMail[]> {
  let found: SinkMail[] = [];
  await expect
    .poll(
      async () => {
        found = (await allMails(request)).filter((m) => m.envelopeTo.some((to) => to.toLowerCase() === address.toLowerCase()));
        return found.length;
      },
      { message: `mails to ${address}`, timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found;
}

/** The first link of the app in a mail's text (as the recipient would click it), as a path. */
export function linkPath(mail: Pick<SinkMail, 'text'>, pathPrefix: string): string {
  const m = new RegExp(`https?://[^\\s/]+(${pathPrefix}[^\\s]*)`).exec(mail.text);
  expect(m, mail.text).not.toBeNull();
  return m![1]!;
}

const shotsRoot = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/**
 * A mail as its recipient reads it (sender, recipient, subject, plain text), rendered in a page of
 * its own and saved under e2e/screenshots/<feature>/<name>.png (when screenshots are wanted).
 */
export async function mailScreenshot(page: Page, mail: Pick<SinkMail, 'from' | 'to' | 'subject' | 'text'>, feature: string, name: string): Promise<void> {
  const esc = (v: string) => v.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  const html = `<!doctype html><meta charset="utf-8"><body style="font:15px/1.5 system-ui;margin:24px;max-width:680px">
    <p><b>Von:</b> ${esc(mail.from)}<br><b>An:</b> ${esc(mail.to.join(', '))}<br><b>Betreff:</b> ${esc(mail.subject)}</p><hr>
    <pre style="white-space:pre-wrap;font:inherit">${esc(mail.text)}</pre></body>`;
  const view = await page.context().newPage();
  await view.setContent(html);
  await saveScreenshot(view, { path: join(shotsRoot, feature, `${name}.png`), fullPage: true });
  await view.close();
}
