import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** One received mail, parsed (mailparser): the envelope as the server saw it and the decoded message. */
export type ReceivedMail = {
  envelopeFrom: string;
  envelopeTo: string[];
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Every header as written (unfolded, not decoded), names in lower case (repeated ones joined). */
  headers: Record<string, string>;
  raw: string;
};

export type TestSmtp = {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** The first mail (received or still to come within `timeoutMs`) that passes `match`. */
  waitFor: (match: (m: ReceivedMail) => boolean, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

/**
 * A real SMTP server for the tests (smtp-server, on loopback, no authentication, no TLS) that
 * parses every mail it accepts (mailparser), so a test reads what a recipient's mail program would:
 * decoded subject and text, headers, envelope. `refuse` answers 550 to every recipient.
 */
export async function startTestSmtp(o: { refuse?: boolean; port?: number } = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onRcptTo(_address, _session, callback) {
      if (o.refuse) callback(Object.assign(new Error('no such mailbox'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            // each header as written (unfolded), so a test sees exactly what a mail program gets
            const headers: Record<string, string> = {};
            for (const { key, line } of parsed.headerLines) {
              const value = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
              headers[key.toLowerCase()] = headers[key.toLowerCase()] === undefined ? value : `${headers[key.toLowerCase()]}, ${value}`;
            }
            const to = parsed.to ? (Array.isArray(parsed.to) ? parsed.to : [parsed.to]).flatMap((a) => a.value.map((x) => x.address ?? '')) : [];
            mails.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              from: parsed.from?.value[0]?.address ?? '',
              to,
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              headers,
              raw: raw.toString('utf8'),
            });
            for (const w of waiters) w();
            callback();
          })
          .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.on('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', resolve);
  });
  const port = (server.server.address() as { port: number }).port;

  const waitFor = (match: (m: ReceivedMail) => boolean, timeoutMs = 10_000) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const look = () => {
        const found = mails.find(match);
        if (!found) return false;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
        return true;
      };
      const check = () => void look();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching mail within ${timeoutMs} ms (${mails.length} received)`));
      }, timeoutMs);
      if (!look()) waiters.add(check);
    });

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
