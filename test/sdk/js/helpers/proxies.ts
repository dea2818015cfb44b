import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Proxy {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  /** The `Idempotency-Key` of every request seen, in order. */
  idempotencyKeys: string[];
  close(): Promise<void>;
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const closeServer = (server: Server, sockets: Set<Socket>) =>
  new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });

/**
 * A TCP proxy that forwards the first connection's request to the service and then drops that
 * connection when the service answers, before the client sees a byte: the write happened, the
 * client saw a network failure. Later connections pass through.
 */
export async function dropFirstResponseProxy(target: string): Promise<Proxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const idempotencyKeys: string[] = [];
  let count = 0;
  const server = createServer((client) => {
    const n = ++count;
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.on('data', (chunk: Buffer) => {
      const key = /\r\nidempotency-key: *([^\r\n]+)/i.exec(chunk.toString('latin1'))?.[1];
      if (key) idempotencyKeys.push(key);
      upstream.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    if (n === 1) {
      upstream.once('data', () => {
        client.destroy();
        upstream.destroy();
      });
    } else {
      upstream.pipe(client);
    }
  });
  const url = await listen(server);
  return { url, connections: () => count, idempotencyKeys, close: () => closeServer(server, sockets) };
}

/** An HTTP proxy that holds every request for `delayMs` before forwarding it. */
export async function delayingProxy(target: string, delayMs: number): Promise<Proxy> {
  const base = new URL(target);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const idempotencyKeys: string[] = [];
  let count = 0;
  const server = createHttpServer((req, res) => {
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string') idempotencyKeys.push(key);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        const upstream = httpRequest(
          { host: base.hostname, port: base.port, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      }, delayMs);
      timers.add(timer);
    });
  });
  server.on('connection', (s) => {
    count++;
    sockets.add(s);
  });
  const url = await listen(server);
  return {
    url,
    connections: () => count,
    idempotencyKeys,
    close: () => {
      for (const t of timers) clearTimeout(t);
      return closeServer(server, sockets);
    },
  };
}

export interface StubReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Stub extends Proxy {
  /** Request headers, in order. */
  requests: IncomingHttpHeaders[];
}

/** A server that answers the scripted replies in turn (the last one repeats): for statuses the service cannot be made to send. */
export async function scriptedServer(replies: StubReply[]): Promise<Stub> {
  const sockets = new Set<Socket>();
  const requests: IncomingHttpHeaders[] = [];
  const idempotencyKeys: string[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(req.headers);
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string') idempotencyKeys.push(key);
    req.resume();
    req.on('end', () => {
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)] as StubReply;
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  server.on('connection', (s) => sockets.add(s));
  const url = await listen(server);
  return { url, requests, connections: () => requests.length, idempotencyKeys, close: () => closeServer(server, sockets) };
}
