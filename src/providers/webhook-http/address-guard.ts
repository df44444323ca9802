import net from 'node:net';

// Addresses a webhook may never reach unless the operator allows private networks: everything that
// is not the public internet (RFC 6890 special-purpose registries). Checked on the address actually
// connected to, so a hostname that resolves (or rebinds) to one of these is refused like the literal.

const V4: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved (6to4 relay)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64 (local)'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function blockList(ranges: ReadonlyArray<readonly [string, number, string]>, type: 'ipv4' | 'ipv6') {
  return ranges.map(([net0, prefix, why]) => {
    const list = new net.BlockList();
    list.addSubnet(net0, prefix, type);
    return { list, why, type };
  });
}

const RULES = [...blockList(V4, 'ipv4'), ...blockList(V6, 'ipv6')];

/** `::ffff:a.b.c.d` (in either spelling) is the IPv4 address a.b.c.d: judged as that. */
function unmapped(address: string): { address: string; type: 'ipv4' | 'ipv6' } | undefined {
  const family = net.isIP(address);
  if (family === 4) return { address, type: 'ipv4' };
  if (family !== 6) return undefined;
  const probe = new net.BlockList();
  probe.addSubnet('::ffff:0:0', 96, 'ipv6');
  if (!probe.check(address, 'ipv6')) return { address, type: 'ipv6' };
  const sa = new net.SocketAddress({ address, family: 'ipv6' });
  const groups = expandV6(sa.address);
  const hi = groups[6]!;
  const lo = groups[7]!;
  return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, type: 'ipv4' };
}

function expandV6(address: string): number[] {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array.from({ length: 8 - h.length - t.length }, () => '0');
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/**
 * Why connecting to `address` (a literal IP) is refused, or null when it is a public address. Not an
 * IP at all is refused too: the caller must resolve names first and check what they resolve to.
 */
export function forbiddenAddressReason(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const ip = unmapped(bare.replace(/%.*$/, ''));
  if (!ip) return 'not an IP address';
  for (const rule of RULES) {
    if (rule.type === ip.type && rule.list.check(ip.address, ip.type)) return `${ip.address} is in the ${rule.why} range`;
  }
  return null;
}
