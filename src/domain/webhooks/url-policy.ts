import { BlockList, isIP } from 'node:net';
import { ApiError } from '../../errors/api-error.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/**
 * Addresses a live-mode endpoint may not reach: loopback, private, link-local, shared (CGNAT),
 * unspecified, multicast and reserved ranges (BlockList checks IPv4-mapped IPv6 addresses against
 * the IPv4 rules). Sending there would let an API caller probe the service's own network (SSRF).
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** True for an IP literal that a live-mode endpoint may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family === 6) return FORBIDDEN.check(address, 'ipv6');
  return true;
}

/** The URL's host without IPv6 brackets or a trailing dot. */
export function bareHost(url: URL): string {
  const host = url.hostname.toLowerCase();
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

function invalid(message: string): ApiError {
  return new ApiError('parameter_invalid', message, { param: 'url' });
}

/**
 * Checks an endpoint URL for the key's mode. Test mode takes http:// and https:// to any host
 * (local development); live mode only https:// to a public host. DNS names are checked again
 * at delivery time, against the addresses they resolve to.
 */
export function checkEndpointUrl(raw: string, livemode: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('Invalid url: send an absolute http:// or https:// URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('Invalid url: the scheme must be https (or http in test mode).');
  if (url.username || url.password) throw invalid('Invalid url: credentials in the URL are not accepted; verify the signature instead.');
  if (!livemode) return url.href;

  if (url.protocol !== 'https:') throw invalid('Invalid url: live-mode endpoints must use https://.');
  const host = bareHost(url);
  if (isIP(host)) {
    if (isForbiddenAddress(host))
      throw invalid('Invalid url: live-mode endpoints may not point at private, loopback or link-local addresses.');
    return url.href;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    throw invalid('Invalid url: live-mode endpoints need a public host name.');
  }
  return url.href;
}
