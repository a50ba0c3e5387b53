import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may reach. Only globally routable unicast is allowed: loopback,
 * private, link-local (which includes the 169.254.169.254 cloud metadata address), CGNAT,
 * multicast, reserved, unspecified, and every IPv6 form that embeds or maps an IPv4 address are
 * refused, unless private targets are explicitly allowed.
 */
export function isForbiddenAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isForbiddenAddress(v6.toIPv4Address().toString());
    // IPv4-compatible ::a.b.c.d (::/96, deprecated by RFC 4291) embeds an IPv4 address too;
    // ipaddr.js calls it unicast. Nothing legitimate is reached that way.
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return true;
    return v6.range() !== 'unicast';
  }
  return parsed.range() !== 'unicast';
}

/**
 * The host of a URL as an IP literal, if it is one. The WHATWG URL parser has already turned
 * decimal, octal and hex IPv4 notations into dotted form, and IPv6 is in brackets.
 */
export function literalAddressOf(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ipaddr.isValid(host) ? host : null;
}
