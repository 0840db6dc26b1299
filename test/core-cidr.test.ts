import { cidrContains, cidrEquals, cidrsOverlap, parseCidr } from '../src/core/cidr';

describe('CIDR parsing for policy networks', () => {
  test.each([
    ['10.0.0.0/8', 4, 8], ['192.0.2.7', 4, 32], ['fd00::/8', 6, 8], ['::1', 6, 128], ['::ffff:10.0.0.1/128', 6, 128], ['2001:db8:0:0:0:0:0:1', 6, 128],
  ])('%s parses', (text, family, prefix) => {
    expect(parseCidr(text)).toMatchObject({ family, prefix });
  });
  test.each(['10.0.0.0/33', '256.0.0.1', '10.0.0/8', 'fd00:::1', '1:2:3:4:5:6:7:8:9', 'x', '', '10.0.0.0/8/1', 42, undefined])('%p does not parse', (text) => {
    expect(parseCidr(text)).toBeUndefined();
  });
  test('host bits are cleared and ranges compare', () => {
    const wide = parseCidr('10.1.2.3/8')!;
    expect(cidrEquals(wide, parseCidr('10.0.0.0/8')!)).toBe(true);
    expect(cidrContains(wide, parseCidr('10.200.0.0/16')!)).toBe(true);
    expect(cidrContains(parseCidr('10.200.0.0/16')!, wide)).toBe(false);
    expect(cidrsOverlap(parseCidr('10.0.0.0/8')!, parseCidr('0.0.0.0/0')!)).toBe(true);
    expect(cidrsOverlap(parseCidr('10.0.0.0/8')!, parseCidr('fd00::/8')!)).toBe(false);
    expect(cidrContains(parseCidr('fd00::/8')!, parseCidr('fd12:3456::1')!)).toBe(true);
  });
});
