import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

// http_ece (MIT) is the RFC 8188/8291 implementation web-push itself encrypts with; here it decrypts.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt: (body: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }) => Buffer;
};

/** What the test push service received and checked: the VAPID claims and the decrypted payload. */
export type ReceivedPush = {
  subscription: string;
  payload: unknown;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  vapid: { aud: string; sub: string; exp: number };
};

/**
 * A push service on loopback (RFC 8030) for the tests: it accepts a notification only when the
 * VAPID header (RFC 8292) is signed by the expected server key for this origin and the body is
 * aes128gcm (RFC 8291) that decrypts with the subscription's private keys, which only it (the
 * "browser") holds. A subscription can be told to answer 410 (gone) or 500.
 */
export async function startTestPushService(serverPublicKey: () => string) {
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const browsers = new Map<string, { ecdh: ECDH; auth: Buffer; status: number }>();

  const body = (req: IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  function checkVapid(header: string | undefined, origin: string): ReceivedPush['vapid'] {
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!m) throw new Error(`no vapid authorization: ${header}`);
    const [jwt, k] = [m[1]!, m[2]!];
    if (k !== serverPublicKey()) throw new Error('signed with another key than the server announces');
    const [h, p, s] = jwt.split('.') as [string, string, string];
    const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string };
    if (head.alg !== 'ES256') throw new Error(`alg ${head.alg}`);
    const point = Buffer.from(k, 'base64url');
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }, format: 'jwk' });
    if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))) throw new Error('bad VAPID signature');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as ReceivedPush['vapid'];
    const now = Date.now() / 1000;
    if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error(`exp ${claims.exp} out of range`);
    if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub}`);
    return claims;
  }

  const server = createServer((req, res) => {
    void body(req).then((raw) => {
      const id = (req.url ?? '').replace(/^\/push\//, '');
      const browser = browsers.get(id);
      if (!browser || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      try {
        const vapid = checkVapid(req.headers.authorization, `http://${req.headers.host}`);
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${req.headers['content-encoding']}`);
        const plain = ece.decrypt(raw, { version: 'aes128gcm', privateKey: browser.ecdh, authSecret: browser.auth.toString('base64url') });
        if (browser.status !== 201) {
          res.writeHead(browser.status).end();
          return;
        }
        received.push({
          subscription: id,
          payload: JSON.parse(plain.toString('utf8')),
          ttl: Number(req.headers.ttl),
          urgency: (req.headers.urgency as string | undefined) ?? null,
          topic: (req.headers.topic as string | undefined) ?? null,
          vapid,
        });
        res.writeHead(201).end();
      } catch (err) {
        refused.push(err instanceof Error ? err.message : String(err));
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;

  return {
    host,
    received,
    refused,
    /** A browser's new subscription (PushSubscription.toJSON()): its keys stay here. */
    subscribe(): { endpoint: string; keys: { p256dh: string; auth: string } } {
      const id = randomBytes(12).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      browsers.set(id, { ecdh, auth, status: 201 });
      return { endpoint: `http://${host}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
    },
    /** From now on this subscription answers `status` (410: the browser unsubscribed). */
    answer(endpoint: string, status: number) {
      const b = browsers.get(endpoint.split('/').pop()!);
      if (b) b.status = status;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
