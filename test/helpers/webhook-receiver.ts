import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import type { Clock } from '../../src/lib/clock.js';

export interface ReceivedHit {
  /** 1-based, in arrival order. */
  n: number;
  event: { id: string; type: string; data: { object: Record<string, unknown> }; pending_webhooks?: number };
  body: string;
  headers: IncomingHttpHeaders;
  signatureValid: boolean;
  status: number;
}

export interface WebhookReceiver {
  url: string;
  hits: ReceivedHit[];
  /** The endpoint's secret, set once the endpoint exists. */
  secret: string;
  /** Chooses the answer to each hit (default 200); tests make it fail on chosen attempts. */
  respond: (hit: Omit<ReceivedHit, 'status'>) => number | Promise<number>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1 at a random port. It verifies `Service-Signature` as an
 * integrator would, against the test's clock (the service signs with that clock's time), and
 * answers 400 to a bad signature, else whatever `respond` says.
 */
export async function startWebhookReceiver(clock: Clock): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    hits: [],
    secret: '',
    respond: () => 200,
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['service-signature'];
      const signatureValid = verifySignature(
        typeof header === 'string' ? header : undefined,
        body,
        receiver.secret,
        Math.floor(clock.now() / 1000),
      );
      const hit = { n: receiver.hits.length + 1, event: JSON.parse(body), body, headers: req.headers, signatureValid };
      const record: ReceivedHit = { ...hit, status: 0 };
      receiver.hits.push(record);
      record.status = signatureValid ? await receiver.respond(hit) : 400;
      res.writeHead(record.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
