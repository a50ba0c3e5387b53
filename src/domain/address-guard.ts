import ipaddr from 'ipaddr.js';

/** The refused ranges' names in words, for messages; any other refused range is "reserved". */
const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a unique-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
};

/**
 * Which addresses a webhook may reach. Only globally routable unicast is allowed: loopback,
 * private, link-local (which includes the 169.254.169.254 cloud metadata address), CGNAT,
 * multicast, reserved, unspecified, and every IPv6 form that embeds or maps an IPv4 address are
 * refused, unless private targets are explicitly allowed.
 */
export function isForbiddenAddress(address: string): boolean {
  return forbiddenRangeOf(address) !== null;
}

/**
 * Why an address is refused, as the kind of address it is ("a loopback address"), never the
 * address itself (a message that named what a host name resolved to would let anyone read
 * internal DNS); null when it may be reached.
 */
export function forbiddenRangeOf(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return forbiddenRangeOf(v6.toIPv4Address().toString());
    // IPv4-compatible ::a.b.c.d (::/96, deprecated by RFC 4291) embeds an IPv4 address too;
    // ipaddr.js calls it unicast. Nothing legitimate is reached that way.
    if (v6.parts.slice(0, 6).every((part) => part === 0) && v6.range() === 'unicast')
      return 'an IPv6 address with an IPv4 one inside';
  }
  const range = parsed.range();
  if (range === 'unicast') return null;
  return RANGE_NAMES[range] ?? 'a reserved address';
}

/**
 * The host of a URL as an IP literal, if it is one. The WHATWG URL parser has already turned
 * decimal, octal and hex IPv4 notations into dotted form, and IPv6 is in brackets.
 */
export function literalAddressOf(url: URL): string | null {
  return literalAddress(url.hostname);
}

/** A host (bracketed IPv6 or not) as an IP literal, if it is one. */
export function literalAddress(host: string): string | null {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) ? bare : null;
}
