// deploy/nginx/pxt.conf as the nginx deployment test runs it (tests/api/nginx-deploy.test.ts): the
// site on loopback ports inside the minimal nginx.conf a non-root nginx needs, and one request to it
// as a client on the Internet would make it, for the site's host name.
import { readFileSync } from 'node:fs';
import { type Agent as HttpAgent, request as httpRequest } from 'node:http';
import { type Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { ROOT } from './server-process';

/** The host name the site serves (its server_name). */
export const HOST = 'pxt.example.com';

/** Replaces `from` in the site file, which must be there exactly once (`all`: at least once). */
function swap(text: string, from: string, to: string, all = false): string {
  const n = text.split(from).length - 1;
  if (all ? n === 0 : n !== 1)
    throw new Error(`deploy/nginx/pxt.conf: expected "${from}" ${all ? 'at least' : 'exactly'} once, found ${n} times`);
  return text.split(from).join(to);
}

export interface Ports {
  http: number;
  https: number;
  api: [number, number];
}

/** deploy/nginx/pxt.conf on loopback ports, inside the minimal nginx.conf a non-root nginx needs. */
export function nginxConfig(dir: string, ports: Ports, cert: { cert: string; key: string }, dist: string): string {
  let site = readFileSync(join(ROOT, 'deploy/nginx/pxt.conf'), 'utf8');
  site = swap(site, 'listen 80;', `listen 127.0.0.1:${ports.http};`);
  site = swap(site, 'listen [::]:80;', '');
  site = swap(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`);
  site = swap(site, 'listen [::]:443 ssl http2;', '');
  site = swap(site, '/etc/letsencrypt/live/pxt.example.com/fullchain.pem', cert.cert);
  site = swap(site, '/etc/letsencrypt/live/pxt.example.com/privkey.pem', cert.key);
  site = swap(site, 'root /srv/pxt/app/dist;', `root ${dist};`);
  site = swap(site, 'server 127.0.0.1:8081 ', `server 127.0.0.1:${ports.api[0]} `);
  site = swap(site, 'server 127.0.0.1:8082 ', `server 127.0.0.1:${ports.api[1]} `);
  site = swap(site, 'include snippets/pxt-proxy.conf;', `include ${join(ROOT, 'deploy/nginx/pxt-proxy.conf')};`, true);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${dir}/${t};`)
    .join('\n  ');
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  ${temp}
${site}
}
`;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  agent?: Agent | HttpAgent;
  localAddress?: string;
}

/** One request to nginx (https unless `port` is the http one); status 0 when the connection failed. */
export function call(port: number, path: string, opts: CallOptions & { plain?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const make = opts.plain ? httpRequest : httpsRequest;
    const req = make({
      host: '127.0.0.1',
      port,
      path,
      method: opts.method ?? 'GET',
      agent: opts.agent,
      localAddress: opts.localAddress,
      headers: { host: HOST, ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      // A self-signed certificate: this test is about what nginx passes on, not about trust.
      rejectUnauthorized: false,
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      res.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
    });
    req.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
    req.end(opts.body);
  });
}
