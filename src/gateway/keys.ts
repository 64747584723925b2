import crypto from 'node:crypto';

// The key is read from the request and used to call the API; it is never stored, logged or compared at
// rest. What the gateway remembers about a key (its company, its proofs of access) it remembers under the
// key's fingerprint: HMAC-SHA256 with the gateway's secret, which cannot be turned back into the key and
// cannot be checked against a guessed key without the secret.

const BEARER = /^bearer\s+(\S+)$/i;

/** The key of `Authorization: Bearer <key>` as sent, or undefined (the API then answers 401 itself). */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = BEARER.exec(header.trim());
  return m ? m[1] : undefined;
}

export type Fingerprint = string & { readonly __fingerprint: unique symbol };

export function fingerprintOf(secret: Buffer, key: string): Fingerprint {
  return crypto.createHmac('sha256', secret).update(key, 'utf8').digest('hex') as Fingerprint;
}
