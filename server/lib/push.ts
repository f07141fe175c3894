import { createECDH, hkdfSync } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { pushEndpointAllowed } from './push-hosts';

export { pushEndpointAllowed };

/**
 * Web Push (docs/decisions/web-push.md; RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID).
 * `web-push` builds each request (the VAPID JWT signed with the server's key, the payload
 * encrypted for the subscription's keys); this module posts it, with a timeout, and only to the
 * push services the operator allows (the server must not become a proxy to any address a browser
 * names).
 */

export type VapidKeys = { publicKey: string; privateKey: string };

/**
 * The server's VAPID key pair, derived from the app secret (HKDF-SHA-256): every process of one
 * installation signs with the same key without storing one, and a new secret is a new key (the
 * browsers then subscribe again).
 */
export function vapidKeysFrom(secret: string): VapidKeys {
  for (let i = 0; ; i++) {
    const d = Buffer.from(hkdfSync('sha256', secret, 'uebungskontrolle', `vapid-p256-${i}`, 32));
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(d);
      return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: d.toString('base64url') };
    } catch {
      // a scalar outside the curve's order (odds 2^-32): the next one
    }
  }
}

/** A device's subscription, and the language of the page that subscribed it (its notifications' language). */
export type PushTarget = { id: number; endpoint: string; p256dh: string; auth: string; language: 'de' | 'tr' };
/** What the service worker shows (web/sw.ts): a tap opens `url`, a path of the app. */
export type PushMessage = { title: string; body: string; url: string; tag: string };
export type PushOutcome = 'sent' | 'gone' | 'failed';

export class Pusher {
  readonly keys: VapidKeys;

  constructor(
    secret: string,
    private readonly contact: string,
    private readonly hosts: readonly string[],
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  ) {
    this.keys = vapidKeysFrom(secret);
  }

  allowed(endpoint: string): boolean {
    return pushEndpointAllowed(endpoint, this.hosts);
  }

  /** Posts one notification; 'gone' when the push service no longer knows the subscription (404, 410). */
  async send(target: PushTarget, message: PushMessage, ttlSeconds: number): Promise<PushOutcome> {
    if (!this.allowed(target.endpoint)) return 'gone';
    try {
      const req = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, JSON.stringify(message), {
        vapidDetails: { subject: this.contact, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
        TTL: ttlSeconds,
        contentEncoding: 'aes128gcm',
        urgency: 'normal',
        topic: message.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
      });
      const res = await fetch(req.endpoint, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.body ? new Uint8Array(req.body) : null,
        redirect: 'error',
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status === 404 || res.status === 410) return 'gone';
      if (res.ok) return 'sent';
      this.log.warn({ status: res.status, subscription: target.id }, 'push service refused a notification');
      return 'failed';
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? err.message : String(err), subscription: target.id }, 'could not deliver a push notification');
      return 'failed';
    }
  }
}

/** The contact the push services see: PUSH_CONTACT, else PUBLIC_URL when it is https, else a placeholder address. */
export function pushContact(config: { PUSH_CONTACT?: string | undefined; PUBLIC_URL?: string | undefined }): string {
  if (config.PUSH_CONTACT) return config.PUSH_CONTACT;
  if (config.PUBLIC_URL?.startsWith('https://')) return new URL(config.PUBLIC_URL).origin;
  return 'mailto:push@uebungskontrolle.invalid';
}
