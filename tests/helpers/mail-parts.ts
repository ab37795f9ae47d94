// Reads an outbox .eml as a mail program would: the subject with its encoded words (RFC 2047)
// decoded, and the plain-text and HTML parts with their transfer encoding undone, so a test can
// check the words of a mail in any language, not the bytes nodemailer chose to send them as.

export interface MailParts {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const qp = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** `=?UTF-8?B?…?=` and `=?UTF-8?Q?…?=` words, with the folding between them. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : qp(data.replace(/_/g, ' ')),
    );
}

function header(block: string, name: string): string {
  // Folded headers: a line starting with white space continues the previous one.
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'mi').exec(unfolded)?.[1]?.trim() ?? '';
}

function body(part: string): { type: string; content: string } {
  const split = part.search(/\r?\n\r?\n/);
  const head = part.slice(0, split);
  const raw = part.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoding = header(head, 'Content-Transfer-Encoding').toLowerCase();
  const content =
    encoding === 'base64'
      ? Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? qp(raw)
        : raw;
  return { type: header(head, 'Content-Type').toLowerCase(), content };
}

export function mailParts(eml: string): MailParts {
  const top = eml.slice(0, eml.search(/\r?\n\r?\n/));
  const boundary = /boundary="?([^";\s]+)"?/i.exec(header(top, 'Content-Type'))?.[1];
  const parts = boundary ? eml.split(`--${boundary}`).slice(1, -1).map(body) : [body(eml)];
  const of = (type: string) => parts.find((p) => p.type.startsWith(type))?.content ?? '';
  return {
    to: header(top, 'To'),
    subject: decodeWords(header(top, 'Subject')),
    text: of('text/plain'),
    html: of('text/html'),
  };
}
