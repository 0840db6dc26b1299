/**
 * Every rule says which linkerd2 code (tag version-2.20) it mirrors, or which other authority when Linkerd is not the one
 * deciding. When the linkerd2 mirror is on this machine, each cited file must exist at the tag and each function it names
 * must occur in that file, so a citation cannot drift into an invented path. A segment opening with
 * "linkerd2-proxy-init" or "linkerd2-proxy" is checked the same way against that repository's mirror, at the ref
 * version-2.20 builds (Dockerfile.proxy) or pins (.proxy-version).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { knownRules } from '../../src/frontends/cli/rule-list';

/** The engine's pack plus the rules front-ends add (LKD-META-001, LKD-SCHEMA-001). */
const ALL_RULES = knownRules();

const MIRROR = process.env.LINKERD2_MIRROR ?? '/work/.mirror/linkerd+linkerd2/repo';
const TAG = 'version-2.20';
const mirrorAvailable = fs.existsSync(MIRROR);
const describeWithMirror: jest.Describe = mirrorAvailable ? describe : describe.skip;

/** A linkerd2 path: has a folder and one of the extensions the sources are written in. */
const PATH = /[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\.(?:rs|go|yaml|tpl)\b/g;

/** A segment opening with this names files of linkerd2-proxy-init, at the ref linkerd2's Dockerfile.proxy builds. */
const PROXY_INIT = 'linkerd2-proxy-init';
/** A segment opening with this names files of linkerd2-proxy, at the release linkerd2's .proxy-version pins. */
const PROXY = 'linkerd2-proxy';

type Repo = 'linkerd2' | typeof PROXY_INIT | typeof PROXY;

interface Citation {
  readonly repo: Repo;
  readonly path: string;
  /** What follows the path up to the next `;`: the functions it names. */
  readonly names: string;
}

function citations(source: string): Citation[] {
  return source.split(';').flatMap((segment) => {
    const found = [...segment.matchAll(PATH)];
    if (found.length === 0) return [];
    const opening = segment.trimStart();
    const repo: Repo = opening.startsWith(`${PROXY_INIT} `) ? PROXY_INIT : opening.startsWith(`${PROXY} `) ? PROXY : 'linkerd2';
    const last = found[found.length - 1];
    const names = segment.slice((last.index ?? 0) + last[0].length);
    return found.map((m, i) => ({ repo, path: m[0], names: i === found.length - 1 ? names : '' }));
  });
}

/** Rust `Type::fn` and snake_case names, Go camelCase and `(recv *T) Name` names, outside quotes and parentheses. */
function functionNames(citation: Citation): string[] {
  const text = citation.names.replace(/"[^"]*"/g, '').replace(/\([^()]*\)/g, (inner) => (citation.path.endsWith('.go') ? inner : ''));
  if (citation.path.endsWith('.rs')) {
    return [...text.matchAll(/\b[A-Za-z][A-Za-z0-9]*::[a-z_][a-z0-9_]*\b|\b[a-z][a-z0-9]*_[a-z0-9_]+\b/g)].map((m) => m[0].split('::').pop()!);
  }
  if (citation.path.endsWith('.go')) {
    return [...text.matchAll(/\b(?:[A-Z][a-z0-9]+){2,}\b|\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/g)].map((m) => m[0]);
  }
  return [];
}

function showAtTag(file: string, mirror = MIRROR, tag = TAG): string | undefined {
  try {
    return execFileSync('git', ['-C', mirror, 'show', `${tag}:${file}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}

const PROXY_INIT_MIRROR = process.env.LINKERD2_PROXY_INIT_MIRROR ?? '/work/.mirror/linkerd+linkerd2-proxy-init/repo';
const PROXY_MIRROR = process.env.LINKERD2_PROXY_MIRROR ?? '/work/.mirror/linkerd+linkerd2-proxy/repo';

/** The proxy-init ref version-2.20 builds into its proxy image (Dockerfile.proxy `ARG PROXY_INIT_REF`). */
function proxyInitRef(): string | undefined {
  return /ARG PROXY_INIT_REF="([^"]+)"/.exec(showAtTag('Dockerfile.proxy') ?? '')?.[1];
}

/** The proxy release version-2.20 pins (`.proxy-version`), as linkerd2-proxy tags it. */
function proxyRef(): string | undefined {
  const version = showAtTag('.proxy-version')?.trim();
  return version ? `release/${version}` : undefined;
}

describe('rule sources', () => {
  test('every rule names the linkerd2 code or the other authority it mirrors', () => {
    const missing = ALL_RULES.filter((r) => !(r.doc.linkerdSource ?? '').trim()).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  test('a source cites a linkerd2 file, or says plainly that Linkerd is not what decides', () => {
    const vague = ALL_RULES
      .filter((r) => citations(r.doc.linkerdSource ?? '').length === 0 && !/^not Linkerd: \S/.test(r.doc.linkerdSource ?? ''))
      .map((r) => r.id);
    expect(vague).toEqual([]);
  });
});

describeWithMirror('rule sources against the linkerd2 mirror at version-2.20', () => {
  const cache = new Map<string, string | undefined>();
  /** Where each repository's citations are read, when its mirror is here too (linkerd2's always is in this block). */
  const refs: Record<Repo, { mirror: string; tag: string } | undefined> = {
    'linkerd2': { mirror: MIRROR, tag: TAG },
    'linkerd2-proxy-init': fs.existsSync(PROXY_INIT_MIRROR) ? { mirror: PROXY_INIT_MIRROR, tag: proxyInitRef() ?? '' } : undefined,
    'linkerd2-proxy': fs.existsSync(PROXY_MIRROR) ? { mirror: PROXY_MIRROR, tag: proxyRef() ?? '' } : undefined,
  };
  const checkable = (c: Citation) => refs[c.repo] !== undefined;
  const read = (c: Citation): string | undefined => {
    const key = `${c.repo}:${c.path}`;
    const ref = refs[c.repo]!;
    if (!cache.has(key)) cache.set(key, showAtTag(c.path, ref.mirror, ref.tag));
    return cache.get(key);
  };

  test('every cited file exists at the tag', () => {
    const absent = ALL_RULES.flatMap((r) => citations(r.doc.linkerdSource ?? '')
      .filter((c) => checkable(c) && read(c) === undefined)
      .map((c) => `${r.id}: ${c.repo} ${c.path}`));
    expect(absent).toEqual([]);
  });

  test('every file a severity reason (doc.certainty) cites exists at the tag', () => {
    const absent = ALL_RULES.flatMap((r) => citations(r.doc.certainty ?? '')
      .filter((c) => checkable(c) && read(c) === undefined)
      .map((c) => `${r.id}: ${c.repo} ${c.path}`));
    expect(absent).toEqual([]);
  });

  test('every cited function occurs in its file', () => {
    const unknown = ALL_RULES.flatMap((r) => citations(r.doc.linkerdSource ?? '').flatMap((c) => {
      const text = checkable(c) ? read(c) : undefined;
      if (text === undefined) return [];
      return functionNames(c).filter((name) => !text.includes(name)).map((name) => `${r.id}: ${c.path} ${name}`);
    }));
    expect(unknown).toEqual([]);
  });

  test('linkerd2-proxy-init and linkerd2-proxy citations are read at the refs version-2.20 builds', () => {
    expect([proxyInitRef(), proxyRef()]).toEqual(['proxy-init/v2.4.9', 'release/v2.359.0']);
  });
});
