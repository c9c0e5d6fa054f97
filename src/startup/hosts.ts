/**
 * The names a request's `Host` may carry besides loopback ones: what the operator listed, the public URL's
 * host, and the address the server binds (or, bound to every address, this machine's addresses and name).
 * A page whose DNS name was rebound to this machine carries its own name, which is on none of these.
 */
import { hostname, networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.js';
import { isLoopbackHost, type AllowList } from '../media/index.js';

/** Binding to one of these answers on every address of the machine. */
const EVERY_ADDRESS = new Set(['0.0.0.0', '::', '']);

/** This machine's own addresses (every interface) and its host name, short and as set. */
function ownNames(): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  const name = hostname().toLowerCase();
  return [...addresses, name, name.split('.')[0]!];
}

/**
 * The allow list the Host check uses (loopback names are always allowed, by the check itself).
 * @example
 * servedHosts({ ...config, host: '192.168.1.5', publicUrl: 'https://vidx.example.org' });
 * // hosts: vidx.example.org and VIDX_ALLOWED_HOSTS' names; ranges: 192.168.1.5/32 and VIDX_ALLOWED_HOSTS' ranges
 */
export function servedHosts(config: Config): AllowList {
  const own: string[] = [];
  if (config.publicUrl) own.push(new URL(config.publicUrl).hostname);
  // A server bound to a loopback address is reached by loopback names only; one bound elsewhere by its address
  // (workers on other machines), and one bound to every address by any of the machine's addresses or its name.
  if (EVERY_ADDRESS.has(config.host)) own.push(...ownNames());
  else if (!isLoopbackHost(config.host)) own.push(config.host);
  const hosts = new Set(config.allowedHosts.hosts);
  const ranges = [...config.allowedHosts.ranges];
  for (const h of own) {
    const bare = h.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    if (!ipaddr.isValid(bare)) hosts.add(bare.toLowerCase().replace(/\.$/, ''));
    else {
      const addr = ipaddr.parse(bare);
      ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    }
  }
  return { hosts, ranges };
}
