import { describe, expect, it } from 'vitest';
import { forbiddenRangeOf, isForbiddenAddress, literalAddressOf } from '../../src/domain/address-guard.js';

/** What the guard decides for the host of `url`, the way registration and delivery see it. */
function verdictForUrl(url: string): { literal: string | null; forbidden: boolean | null } {
  const literal = literalAddressOf(new URL(url));
  return { literal, forbidden: literal === null ? null : isForbiddenAddress(literal) };
}

// [label, URL as a user might register it]
const REFUSED_URLS: Array<[string, string]> = [
  ['loopback, dotted', 'http://127.0.0.1/'],
  ['loopback, short form 127.1', 'http://127.1/'],
  ['loopback, other address of 127/8', 'http://127.255.10.3:8080/x'],
  ['loopback, decimal', 'http://2130706433/'],
  ['loopback, octal', 'http://0177.0.0.1/'],
  ['loopback, hex per part', 'http://0x7f.0.0.1/'],
  ['loopback, hex whole', 'http://0x7f000001/'],
  ['loopback, hex short', 'http://0x7f.1/'],
  ['private 10/8', 'http://10.0.0.5/'],
  ['private 10/8, top', 'http://10.255.255.255/'],
  ['private 10/8, decimal', 'http://167772165/'],
  ['private 172.16/12, bottom', 'http://172.16.0.1/'],
  ['private 172.16/12, top', 'http://172.31.255.254/'],
  ['private 192.168/16', 'http://192.168.1.1/'],
  ['private 192.168/16, octal', 'http://0300.0250.1.1/'],
  ['link-local / cloud metadata', 'http://169.254.169.254/latest/meta-data'],
  ['cloud metadata, hex', 'http://0xa9fea9fe/'],
  ['link-local', 'http://169.254.1.1/'],
  ['CGNAT 100.64/10, bottom', 'http://100.64.0.1/'],
  ['CGNAT 100.64/10, top', 'http://100.127.255.254/'],
  ['unspecified 0.0.0.0', 'http://0.0.0.0/'],
  ['unspecified, written 0', 'http://0/'],
  ['"this network" 0/8', 'http://0.1.2.3/'],
  ['multicast 224.0.0.1', 'http://224.0.0.1/'],
  ['multicast, top of 224/4', 'http://239.255.255.250/'],
  ['reserved 240/4', 'http://240.0.0.1/'],
  ['broadcast', 'http://255.255.255.255/'],
  ['documentation TEST-NET-1', 'http://192.0.2.10/'],
  ['IPv6 loopback', 'http://[::1]/'],
  ['IPv6 loopback, long form', 'http://[0:0:0:0:0:0:0:1]/'],
  ['IPv6 unspecified', 'http://[::]/'],
  ['IPv6 link-local', 'http://[fe80::1]/'],
  ['IPv6 unique local fc00::/7 (fc)', 'http://[fc00::1]/'],
  ['IPv6 unique local fc00::/7 (fd)', 'http://[fd12:3456:789a::1]/'],
  ['IPv6 multicast', 'http://[ff02::1]/'],
  ['IPv4-mapped loopback, dotted', 'http://[::ffff:127.0.0.1]/'],
  ['IPv4-mapped loopback, hex', 'http://[::ffff:7f00:1]/'],
  ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/'],
  ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/'],
  ['IPv4-compatible (deprecated ::/96) loopback', 'http://[::127.0.0.1]/'],
  ['IPv4-compatible (deprecated ::/96) private', 'http://[::10.0.0.1]/'],
  ['NAT64 64:ff9b::/96 of loopback', 'http://[64:ff9b::7f00:1]/'],
  ['6to4 of loopback', 'http://[2002:7f00:1::]/'],
  ['IPv6 documentation', 'http://[2001:db8::1]/'],
];

const ALLOWED_URLS: Array<[string, string]> = [
  ['public IPv4 8.8.8.8', 'http://8.8.8.8/'],
  ['public IPv4 1.1.1.1 with port and path', 'https://1.1.1.1:8443/hooks?x=1'],
  ['public IPv4, decimal', 'http://134744072/'],
  ['public IPv4 just outside 172.16/12', 'http://172.32.0.1/'],
  ['public IPv4 just outside CGNAT', 'http://100.128.0.1/'],
  ['public IPv6', 'http://[2001:4860:4860::8888]/'],
  ['IPv4-mapped public', 'http://[::ffff:8.8.8.8]/'],
];

describe('address guard: literal hosts in URLs', () => {
  it.each(REFUSED_URLS)('when the host is %s (%s), then it is a literal and refused', (_label, url) => {
    const { literal, forbidden } = verdictForUrl(url);
    expect(literal, url).not.toBeNull();
    expect(forbidden, `${url} → ${literal}`).toBe(true);
  });

  it.each(ALLOWED_URLS)('when the host is %s (%s), then it is a literal and allowed', (_label, url) => {
    const { literal, forbidden } = verdictForUrl(url);
    expect(literal, url).not.toBeNull();
    expect(forbidden, `${url} → ${literal}`).toBe(false);
  });

  it('when alternative IPv4 notations are parsed, then they come out as the dotted address they mean', () => {
    for (const url of [
      'http://127.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://0x7f.0.0.1/',
      'http://0x7f000001/',
    ]) {
      expect(literalAddressOf(new URL(url)), url).toBe('127.0.0.1');
    }
  });

  it('when the host is bracketed IPv6, then the literal is returned without brackets', () => {
    expect(literalAddressOf(new URL('http://[::1]:8080/'))).toBe('::1');
    expect(literalAddressOf(new URL('http://[2001:4860:4860::8888]/'))).toBe('2001:4860:4860::8888');
  });

  it.each([
    ['http://example.com/'],
    ['https://hooks.example.com:8443/x'],
    ['http://localhost/'],
    ['http://127.0.0.1.nip.io/'],
    ['http://1.2.3.4.example/'],
  ])('when the host is a name (%s), then it is not a literal (its addresses are checked after resolution)', (url) => {
    expect(literalAddressOf(new URL(url))).toBeNull();
  });
});

describe('address guard: resolved addresses', () => {
  it.each([
    ['127.0.0.1'],
    ['127.1'],
    ['10.1.2.3'],
    ['172.20.0.1'],
    ['192.168.0.10'],
    ['169.254.169.254'],
    ['100.100.100.200'],
    ['0.0.0.0'],
    ['224.0.0.251'],
    ['240.1.2.3'],
    ['255.255.255.255'],
    ['::1'],
    ['::'],
    ['fe80::1'],
    ['fe80::1%eth0'],
    ['fc00::1'],
    ['fdff::1'],
    ['ff02::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:7f00:1'],
    ['::ffff:10.0.0.1'],
    ['::ffff:192.168.1.1'],
    ['::7f00:1'],
    ['not an address'],
    [''],
  ])('when a lookup returns %j, then it is refused', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.216.34'],
    ['2001:4860:4860::8888'],
    ['2606:4700:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['::ffff:808:808'],
  ])('when a lookup returns %j, then it is allowed', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('forbiddenRangeOf: the words a refusal uses', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['fd12::1', 'a unique-local address'],
    ['0.0.0.0', 'an unspecified address'],
    ['ff02::1', 'a multicast address'],
    ['192.0.2.10', 'a reserved address'],
    ['::7f00:1', 'an IPv6 address with an IPv4 one inside'],
    ['8.8.8.8', null],
  ])('when the address is %j, then it is %j (and never named)', (address, words) => {
    expect(forbiddenRangeOf(address)).toBe(words);
  });
});
