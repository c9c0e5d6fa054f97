import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { SourceError } from './errors.js';

/**
 * Which addresses an outbound request may reach. Public unicast addresses always; loopback only when
 * `loopback` is set (admin keys, webhook receivers on this machine); private, link-local, unique-local,
 * carrier-grade NAT, multicast, reserved and unspecified addresses never, unless `allow` lists them.
 */
export interface EgressPolicy {
  loopback: boolean;
  /** Hosts (exact names) and CIDRs opened for everyone (`VIDX_URL_ALLOW`). */
  allow: AllowList;
}

/** Parsed `VIDX_URL_ALLOW`: host names and address ranges. */
export interface AllowList {
  hosts: ReadonlySet<string>;
  ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

/** The resolver used for outbound requests; tests inject one that answers loopback names. */
export type Resolver = (host: string) => Promise<string[]>;

const EMPTY_ALLOW: AllowList = { hosts: new Set(), ranges: [] };

/**
 * Parses `VIDX_URL_ALLOW` (or another list of the same form, named by `setting` in errors): comma- or
 * space-separated host names and CIDRs (a bare address is a /32 or /128). Throws on an entry that is neither.
 * @example
 * parseAllowList('nas.local, 192.168.1.0/24, ::1');
 * parseAllowList('nas.local', 'VIDX_ALLOWED_HOSTS');
 */
export function parseAllowList(raw: string | undefined, setting = 'VIDX_URL_ALLOW'): AllowList {
  const hosts = new Set<string>();
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of (raw ?? '').split(/[\s,]+/).filter(Boolean)) {
    const bare = entry.replace(/^\[|\](?=\/|$)/g, '');
    if (bare.includes('/')) {
      try {
        ranges.push(ipaddr.parseCIDR(bare));
      } catch {
        throw new Error(`${setting}: "${entry}" is not a valid CIDR range`);
      }
    } else if (ipaddr.isValid(bare)) {
      const addr = ipaddr.parse(bare);
      ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else if (/^[A-Za-z0-9.-]+$/.test(bare)) {
      hosts.add(bare.toLowerCase().replace(/\.$/, ''));
    } else {
      throw new Error(`${setting}: "${entry}" is neither a host name nor an address range`);
    }
  }
  return { hosts, ranges };
}

/**
 * The policy for an owner: admins may also reach loopback.
 * @example
 * egressPolicy({ loopback: caller.role === 'admin', allow: config.urlAllow });
 */
export function egressPolicy(opts: { loopback: boolean; allow?: AllowList }): EgressPolicy {
  return { loopback: opts.loopback, allow: opts.allow ?? EMPTY_ALLOW };
}

function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return null;
  const addr = ipaddr.parse(bare);
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

/**
 * Whether `address` (an IP literal in any form Node or a URL gives: IPv4, IPv6, IPv4-mapped) may be reached.
 * @example
 * addressAllowed('127.0.0.1', egressPolicy({ loopback: false })); // false
 * addressAllowed('::ffff:7f00:1', egressPolicy({ loopback: true })); // true
 */
export function addressAllowed(address: string, policy: EgressPolicy): boolean {
  const addr = normalise(address);
  if (!addr) return false;
  if (policy.allow.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) return true;
  const range = addr.range();
  if (range === 'unicast') return true;
  return range === 'loopback' && policy.loopback;
}

/**
 * Whether a host name or address literal is on the list: a listed name (case and a final dot aside), or an
 * address inside a listed range (IPv4-mapped IPv6 counts as its IPv4 address).
 * @example
 * onAllowList('192.168.1.7', parseAllowList('192.168.1.0/24')); // true
 * onAllowList('NAS.home.', parseAllowList('nas.home')); // true
 */
export function onAllowList(host: string, allow: AllowList): boolean {
  const addr = normalise(host);
  if (!addr) return allow.hosts.has(host.toLowerCase().replace(/\.$/, ''));
  return allow.ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

/**
 * Whether a host name or address literal always means this machine: `localhost`, a name under `.localhost`
 * (RFC 6761; browsers never ask DNS for them), or a loopback address in any spelling a URL gives.
 * @example
 * isLoopbackHost('[::1]'); // true
 * isLoopbackHost('evil.example'); // false
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return normalise(name)?.range() === 'loopback';
}

/** Resolves through the system resolver (getaddrinfo), every address. */
export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) => (err ? reject(err) : resolve(addrs.map((a) => a.address))));
  });

/**
 * The addresses of `host` that the policy allows, in resolver order; a literal address is not resolved.
 * An allow-listed host name is taken as allowed whatever it resolves to. Rejects with
 * {@link unreachable} when none is allowed or the name does not resolve, so a refused address and a
 * missing host read the same.
 * @example
 * const [address] = await allowedAddresses('example.org', policy, systemResolver);
 */
export async function allowedAddresses(host: string, policy: EgressPolicy, resolver: Resolver): Promise<string[]> {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  let addrs: string[];
  if (isIP(name)) addrs = [name];
  else {
    try {
      addrs = await resolver(name);
    } catch {
      addrs = [];
    }
  }
  const ok = policy.allow.hosts.has(name) ? addrs : addrs.filter((a) => addressAllowed(a, policy));
  if (!ok.length) throw unreachable(host);
  return ok;
}

/**
 * The one error for "refused by policy", "no such host" and "nothing listens there": the message never
 * tells them apart, so a key holder cannot map the owner's network or ports through vidx.
 * @example
 * throw unreachable('127.0.0.1:22');
 */
export function unreachable(host: string, cause?: unknown): SourceError {
  return new SourceError('unreachable', `${host} cannot be reached from vidx or is not allowed (see VIDX_URL_ALLOW)`, cause ? { cause } : undefined);
}

/**
 * A `lookup` for http(s).request that answers only addresses already checked by {@link allowedAddresses},
 * so the connection goes where the check looked (no second resolution, no DNS rebinding).
 * @example
 * http.get(url, { lookup: pinnedLookup(await allowedAddresses(url.hostname, policy, resolver)) });
 */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options?.all) cb(null, entries);
    else cb(null, entries[0].address, entries[0].family);
  }) as LookupFunction;
}

/**
 * Why a URL whose host is an address literal is refused by the policy, or null (names are checked when
 * they are resolved, at connection time). For refusing a webhook receiver at registration.
 * @example
 * literalRefusal('http://0.0.0.0:9/hook', policy); // '0.0.0.0 is not a public or loopback address …'
 */
export function literalRefusal(url: string, policy: EgressPolicy): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
  if (!isIP(host) || addressAllowed(host, policy)) return null;
  return `${host} is not an address vidx may send to: only public${policy.loopback ? ' and loopback' : ''} addresses, unless VIDX_URL_ALLOW lists it`;
}
