import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface PostRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** When set, the connection may only go to addresses this accepts (checked after DNS resolution). */
  allowAddress?: (address: string) => boolean;
}

export interface PostResult {
  /** The HTTP status, or null when no response arrived. */
  statusCode: number | null;
  /** Why no response arrived (timeout, connection refused, address not allowed, ...). */
  error: string | null;
  durationMs: number;
}

export type HttpPost = (request: PostRequest) => Promise<PostResult>;

class AddressNotAllowed extends Error {
  constructor(readonly address: string) {
    super(`address not allowed: ${address}`);
  }
}

/** A DNS lookup that refuses addresses the policy forbids, so the check holds for the address actually dialled. */
function guardedLookup(allow: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as LookupAddress[];
      const denied = list.find((a) => !allow(a.address));
      if (denied) return callback(new AddressNotAllowed(denied.address) as NodeJS.ErrnoException, '', 4);
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
      return callback(null, first.address, first.family);
    });
  };
}

function describeError(err: unknown): string {
  if (err instanceof AddressNotAllowed) return err.message;
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message}`.slice(0, 300) : String(e.message ?? err).slice(0, 300);
}

/**
 * POSTs a body and answers the status code without following redirects. The response body is
 * read and dropped (receivers are told to answer quickly with an empty 2xx).
 */
export const httpPost: HttpPost = (request) =>
  new Promise<PostResult>((resolve) => {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null) =>
      resolve({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch (err) {
      return done(null, describeError(err));
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (request.allowAddress && isIP(host) && !request.allowAddress(host)) return done(null, new AddressNotAllowed(host).message);
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      timeout: request.timeoutMs,
      agent: false,
      ...(request.allowAddress ? { lookup: guardedLookup(request.allowAddress) } : {}),
    });
    let settled = false;
    const timer = setTimeout(() => req.destroy(new Error(`timeout after ${request.timeoutMs} ms`)), request.timeoutMs);
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(statusCode, error);
    };
    req.on('timeout', () => req.destroy(new Error(`timeout after ${request.timeoutMs} ms`)));
    req.on('error', (err) => finish(null, describeError(err)));
    req.on('response', (res) => {
      res.on('error', () => {});
      res.on('end', () => finish(res.statusCode ?? null, null));
      res.on('close', () => finish(res.statusCode ?? null, null));
      res.resume();
    });
    req.end(request.body);
  });
