import ipaddr from 'ipaddr.js';

/**
 * The client a request's address stands for, as limits per client count it (contract §10: "one
 * client (address, or IPv6 /64)"). An IPv4 address is itself, also when it arrives mapped into
 * IPv6 (`::ffff:203.0.113.7`, as a dual-stack socket reports it). An IPv6 address stands for its
 * /64: that is the smallest network a host is given (RFC 6177), and one host picks any of its
 * 2^64 addresses at will (privacy addresses, RFC 8981), so counting single IPv6 addresses would
 * count nothing. Anything unparsable is its own client.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const prefix = v6.parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(prefix).toString()}/64`;
}
