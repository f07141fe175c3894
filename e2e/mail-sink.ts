/**
 * The browser tests' mailbox: a real SMTP server (server/test/smtp.ts) that the app under test
 * sends to (SMTP_URL in playwright.config.ts), and a small HTTP side from which a test reads what
 * arrived, parsed: `GET /mails` (every mail so far, oldest first), `GET /health`.
 * Started by Playwright as a web server of its own: `npx tsx e2e/mail-sink.ts <smtp port> <http port>`.
 */
import { createServer } from 'node:http';
import { startTestSmtp } from '../server/test/smtp';

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
if (!smtpPort || !httpPort) throw new Error('usage: mail-sink.ts <smtp port> <http port>');

const smtp = await startTestSmtp({ port: smtpPort });
const http = createServer((req, res) => {
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (req.url === '/mails') {
    const mails = smtp.mails.map(({ raw: _raw, ...m }) => m);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mails));
    return;
  }
  res.writeHead(404).end();
});
http.listen(httpPort, '127.0.0.1');
const stop = () => {
  http.close();
  void smtp.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
