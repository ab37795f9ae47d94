// A local stand-in for a browser push service: an HTTPS server with a certificate made at runtime
// (trusted by the app only through PUSH_CA_FILE), browser-side subscription keys, and RFC 8291
// decryption of what arrives, so tests check the pushes a real browser would get.
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushService {
  origin: string;
  received: ReceivedPush[];
  /** Answer requests to `path` with this status (default 201) and these headers. */
  respond(path: string, status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 (and the names localhost, rebound.test), its PEM also written to `dir` for PUSH_CA_FILE. */
export async function makeCertificate(
  dir: string,
  name = 'push-ca.pem',
): Promise<{ key: string; cert: string; caFile: string }> {
  const pems = await generate([{ name: 'commonName', value: 'push.test' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      // Names too, so a test can show that a push to a name resolving to 127.0.0.1 is refused by
      // the endpoint policy rather than by a certificate mismatch.
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
          { type: 2, value: 'rebound.test' },
        ],
      },
    ],
  });
  const caFile = join(dir, name);
  writeFileSync(caFile, pems.cert);
  return { key: pems.private, cert: pems.cert, caFile };
}

export async function startPushService(tls: { key: string; cert: string }): Promise<PushService> {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, { status: number; headers: Record<string, string> }>();
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const answer = statuses.get(path) ?? { status: 201, headers: {} };
      res.writeHead(answer.status, answer.headers);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    received,
    respond: (path, status, headers = {}) => void statuses.set(path, { status, headers }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a browser keeps for one subscription: its ECDH key pair and auth secret. */
export interface BrowserKeys {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  /** As PushSubscription.toJSON() gives them. */
  json: { p256dh: string; auth: string };
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, json: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/** RFC 8291 (with RFC 8188 aes128gcm framing): the plaintext of one push message. */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const serverPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65 || record.length > rs)
    throw new Error(`unexpected aes128gcm header (idlen ${idlen}, rs ${rs}, record ${record.length})`);

  const ecdhSecret = keys.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, keys.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('missing last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Parses `Authorization: vapid t=<jwt>, k=<key>` and checks the JWT's ES256 signature against `k`. */
export function readVapid(header: string | undefined): {
  key: string;
  claims: { aud: string; exp: number; sub: string };
} {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a VAPID authorization header: ${header}`);
  const [jwt, key] = [m[1], m[2]];
  const [head, payload, signature] = jwt.split('.');
  const point = Buffer.from(key, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID JWT signature does not verify');
  if (JSON.parse(Buffer.from(head, 'base64url').toString()).alg !== 'ES256') throw new Error('VAPID JWT is not ES256');
  return { key, claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) };
}
