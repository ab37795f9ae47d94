// Just enough SMTP to take mail from nodemailer (no TLS, no auth), for tests of mail through
// SMTP_URL. `hold()` makes it accept connections and say nothing (a hanging mail server) until
// `release()`, when the held connections get their greeting and the mail goes through.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TestSmtp {
  server: Server;
  received: { rcpt: string[]; data: string }[];
  /** Connections accepted and not yet greeted. */
  held(): number;
  hold(): void;
  release(): void;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export function smtpServer(opts: { rejectRecipients?: () => boolean } = {}): TestSmtp {
  const received: TestSmtp['received'] = [];
  let holding = false;
  const waiting: Socket[] = [];

  const serve = (sock: Socket) => {
    sock.write('220 test ESMTP\r\n');
    let buffer = '';
    let inData = false;
    let data = '';
    let rcpt: string[] = [];
    sock.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push({ rcpt, data });
            rcpt = [];
            data = '';
            sock.write('250 OK queued\r\n');
          } else data += `${line.replace(/^\./, '')}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') sock.write('250-test\r\n250 8BITMIME\r\n');
        else if (cmd === 'RCPT') {
          if (opts.rejectRecipients?.()) sock.write('550 No such user\r\n');
          else {
            rcpt.push(line);
            sock.write('250 OK\r\n');
          }
        } else if (cmd === 'DATA') {
          inData = true;
          sock.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (cmd === 'QUIT') {
          sock.end('221 Bye\r\n');
        } else sock.write('250 OK\r\n');
      }
    });
  };

  const server = createServer((sock) => {
    sock.on('error', () => {});
    if (holding) waiting.push(sock);
    else serve(sock);
  });

  return {
    server,
    received,
    held: () => waiting.length,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const sock of waiting.splice(0)) serve(sock);
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      for (const sock of waiting.splice(0)) sock.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
