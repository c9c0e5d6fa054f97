import { describe, expect, it } from 'vitest';
import { addressAllowed, allowedAddresses, egressPolicy, literalRefusal, parseAllowList } from '../../src/media/egress.js';

// Pure classification of address strings: nothing here opens a connection.
describe('the address policy, as a function of the address', () => {
  const user = egressPolicy({ loopback: false });
  const admin = egressPolicy({ loopback: true });

  it('refuses every special range for users, and only opens loopback for admins', () => {
    const special = ['127.0.0.1', '127.255.255.254', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0.0.0.0', '::', '10.1.2.3', '172.16.0.9', '192.168.1.20',
      '169.254.169.254', 'fe80::1', 'fc00::5', 'fd12:3456::1', '100.64.0.1', '224.0.0.251', 'ff02::1', '255.255.255.255', '::ffff:10.0.0.1', '::ffff:169.254.1.1'];
    for (const a of special) expect(addressAllowed(a, user), a).toBe(false);
    for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(addressAllowed(a, admin), a).toBe(true);
    for (const a of ['10.1.2.3', '169.254.169.254', 'fd12:3456::1', '0.0.0.0']) expect(addressAllowed(a, admin), a).toBe(false);
    expect(addressAllowed('8.8.8.8', user)).toBe(true);
    expect(addressAllowed('2001:4860:4860::8888', user)).toBe(true);
    expect(addressAllowed('not an address', admin)).toBe(false);
  });

  it('opens exactly what VIDX_URL_ALLOW lists, and refuses a malformed entry', () => {
    const allow = parseAllowList('nas.home, 192.168.1.0/24 [fd00::]/8 127.0.0.1');
    const p = egressPolicy({ loopback: false, allow });
    expect(addressAllowed('192.168.1.77', p)).toBe(true);
    expect(addressAllowed('192.168.2.1', p)).toBe(false);
    expect(addressAllowed('fd12::1', p)).toBe(true);
    expect(addressAllowed('127.0.0.1', p)).toBe(true);
    expect(addressAllowed('127.0.0.2', p)).toBe(false);
    expect(() => parseAllowList('10.0.0.0/99')).toThrow(/not a valid CIDR/);
    expect(() => parseAllowList('nas_home!')).toThrow(/neither a host name nor an address range/);
  });

  it('checks every answer of a name, and lets an allowed name through whatever it resolves to', async () => {
    const resolver = async (h: string) => (h === 'mixed.test' ? ['127.0.0.1', '8.8.4.4'] : h === 'nas.home' ? ['127.0.0.9'] : []);
    expect(await allowedAddresses('mixed.test', egressPolicy({ loopback: false }), resolver)).toEqual(['8.8.4.4']);
    expect(await allowedAddresses('nas.home', egressPolicy({ loopback: false, allow: parseAllowList('nas.home') }), resolver)).toEqual(['127.0.0.9']);
    await expect(allowedAddresses('nowhere.test', egressPolicy({ loopback: true }), resolver)).rejects.toThrow(/nowhere\.test cannot be reached from vidx or is not allowed/);
  });

  it('refuses webhook receivers whose address literal is outside the policy at registration', () => {
    const hooks = egressPolicy({ loopback: true });
    expect(literalRefusal('http://127.0.0.1:9000/hook', hooks)).toBeNull();
    expect(literalRefusal('http://[::1]:9000/hook', hooks)).toBeNull();
    expect(literalRefusal('http://receiver.example/hook', hooks)).toBeNull();
    expect(literalRefusal('http://169.254.169.254/latest', hooks)).toMatch(/169\.254\.169\.254 is not an address vidx may send to/);
    expect(literalRefusal('http://[fd00::1]/hook', hooks)).toMatch(/fd00::1 is not an address/);
  });
});
