import { expect, type APIRequestContext } from '@playwright/test';

/** The mailbox's HTTP side: the app's port + 2000 (playwright.config.ts, MAIL_HTTP_PORT). */
const MAIL_HTTP_PORT = Number(process.env.E2E_PORT ?? '4173') + 2000;

/** A mail as the tests' mailbox (e2e/mail-sink.ts) parsed it. */
export type SinkMail = {
  envelopeFrom: string;
  envelopeTo: string[];
  from: string;
  to: string[];
  subject: string;
  text: string;
  headers: Record<string, string>;
};

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
export function linkPath(mail: SinkMail, pathPrefix: string): string {
  const m = new RegExp(`https?://[^\\s/]+(${pathPrefix}[^\\s]*)`).exec(mail.text);
  expect(m, mail.text).not.toBeNull();
  return m![1]!;
}
