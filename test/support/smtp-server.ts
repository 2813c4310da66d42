import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** How many messages reached this recipient. */
  countTo(address: string): number;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** An SMTP reply code (451, 550) for recipients the server refuses, or null to accept. */
  refuse?: (address: string) => number | null;
  /** Awaited before a message is accepted, to keep a send in flight. */
  beforeAccept?: () => Promise<void>;
}

/** A local SMTP server that keeps what it receives and refuses the recipients it is told to. */
export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = options.refuse?.(address.address) ?? null;
      if (code === null) return callback();
      callback(Object.assign(new Error(`Recipient refused (${code})`), { responseCode: code }));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', async () => {
        await options.beforeAccept?.();
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    countTo: (address) => received.filter((mail) => mail.to.includes(address)).length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
