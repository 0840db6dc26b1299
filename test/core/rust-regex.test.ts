import { rustRegexError } from '../../src/core/rust-regex';

// Verdicts read from regex-syntax 0.8.11's parser (src/ast/parse.rs), the version linkerd2 version-2.20 locks.
describe('rustRegexError: what Rust\'s regex crate refuses', () => {
  test.each([
    ['(?=a)b', /look-around/],
    ['a(?!b)', /look-around/],
    ['(?<=a)b', /look-around/],
    ['(?<!a)b', /look-around/],
    ['(a)\\1', /back-reference/],
    ['\\0', /back-reference/],
    ['(?<n>a)\\k<n>', /named back-reference/],
    ['(?>a)', /atomic group/],
    ['(?#note)a', /comment/],
    ['x{', /not a repetition/],
    ['x{a}', /not a repetition/],
    ['x{,5}', /not a repetition/],
    ['x{3,1}', /minimum exceeds its maximum/],
    // parse_decimal trims whitespace around each count, but after ", " a maximum must follow, and digits do not split.
    ['x{1, }', /not a repetition/],
    ['x{1 0}', /not a repetition/],
    ['x{ 6 , 1 }', /minimum exceeds its maximum/],
    ['\\x{110000}', /not a Unicode scalar value/],
    ['*a', /nothing to repeat/],
    ['a|*', /nothing to repeat/],
    ['(?i)*', /nothing to repeat/],
    ['(?)', /empty/],
    ['(?-)a', /dangling/],
    ['(?ii)a', /repeats the flag/],
    ['(?q)a', /unknown flag/],
    ['(?P=n)', /\(\?P/],
    ['(?<>a)', /empty group name/],
    ['(?<1a>a)', /invalid character/],
    ['(?<a>x)(?<a>y)', /twice/],
    ['(a', /never closed/],
    ['a)', /without a matching/],
    ['[a', /never closed/],
    ['[[a]', /never closed/],
    ['[z-a]', /start is after its end/],
    ['[\\d-z]', /ranges need single characters/],
    ['[\\b]', /inside a character class/],
    ['\\e', /does not recognize/],
    ['\\Z', /does not recognize/],
    ['\\xZZ', /hexadecimal/],
    ['\\u{D800}', /not a Unicode scalar value/],
    ['\\p', /middle of a Unicode class/],
    ['\\p{L', /never closed/],
    ['a\\', /lone backslash/],
  ])('%s is refused', (pattern, reason) => {
    expect(rustRegexError(pattern)).toMatch(reason);
  });

  test.each([
    '^/api/v[0-9]+/orders$', '/users/(?P<id>[^/]+)', '(?<id>[0-9]+)', '(?i)/Orders', '(?i:a)b', '(?-i:a)', '(?:)', '()', 'a|',
    'a**', 'a++', 'a+?', 'a{2}', 'a{2,}', 'a{2,5}?', '^*', '\\b+', '[[:alpha:]]', '[[:^digit:]x]', '[a[b]]', '[a&&b]', '[a--b]',
    '[a~~b]', '[]a]', '[^]a]', '[-a]', '[a-]', '\\pL', '\\p{Greek}', '\\x41', '\\x{1F600}', '\\u0041', '\\/', '\\-', '\\<word\\>', '\\z',
    '\\A', '[\\d\\s-]', '\\.', '[.]', 'a{1000}', '(?x) a b', '\\b{start}', '(?<a.b[1]>x)', '(?<名字>x)', '\\%',
    // Whitespace around a repetition's counts, as regex-syntax's parse_decimal trims it, and hex escapes with leading zeros.
    '/orders/[0-9]{1, 6}', 'a{ 5 }', 'a{ 5 , 9 }', 'a{1 ,}', 'a{\t2}', '\\x{0000000041}',
  ])('%s compiles (or is not judged)', (pattern) => {
    expect(rustRegexError(pattern)).toBeUndefined();
  });

  test('JavaScript RegExp is no substitute: it disagrees both ways', () => {
    const jsAccepts = (p: string) => { try { new RegExp(p); return true; } catch { return false; } };
    expect(jsAccepts('(?=a)b') && rustRegexError('(?=a)b') !== undefined).toBe(true);
    expect(jsAccepts('x{') && rustRegexError('x{') !== undefined).toBe(true);
    expect(!jsAccepts('a**') && rustRegexError('a**') === undefined).toBe(true);
    expect(!jsAccepts('(?i)a') && rustRegexError('(?i)a') === undefined).toBe(true);
  });
});
