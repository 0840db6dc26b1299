import * as fs from 'fs';
import * as path from 'path';
import { GENERATED_TARGET, LABELS_GO_SOURCE, keyConstants, renderAnnotationsModule } from '../../scripts/gen-annotations';
import { LABELS_GO, LABELS_GO_KEYS } from '../../src/core/linkerd-annotations.generated';
import * as table from '../../src/core/proxy-annotations';
import { describeWithShared, sharedPath } from '../support/shared';

const labelsGo = (): string => fs.readFileSync(sharedPath(LABELS_GO_SOURCE), 'utf8');

describeWithShared('the annotation vocabulary generated from linkerd2 pkg/k8s/labels.go', () => {
  test('the committed module is what the generator writes today (run `npx projen gen-annotations`)', () => {
    const committed = fs.readFileSync(path.resolve(__dirname, '..', '..', GENERATED_TARGET), 'utf8');
    expect(committed).toEqual(renderAnnotationsModule(labelsGo()));
  });

  test('a changed labels.go changes the output (the staleness check can fail)', () => {
    const edited = labelsGo().replace('"/proxy-await"', '"/proxy-await-renamed"');
    expect(renderAnnotationsModule(edited)).not.toEqual(renderAnnotationsModule(labelsGo()));
    expect(keyConstants(edited).find((k) => k.goName === 'ProxyAwait')?.key).toBe('config.linkerd.io/proxy-await-renamed');
  });

  test('keys built from prefix constants resolve, with their family', () => {
    const byName = new Map(keyConstants(labelsGo()).map((k) => [k.goName, k]));
    expect(byName.get('ProxyEnableHostnameLabels')).toMatchObject({
      key: 'config.linkerd.io/proxy-metrics-hostname-labels', prefix: 'config.linkerd.io', deprecated: false,
    });
    expect(byName.get('ProxyWaitBeforeExitSecondsAnnotation')).toMatchObject({
      key: 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds', prefix: 'config.alpha.linkerd.io', deprecated: false,
    });
    expect(byName.get('ProxyInjectAnnotation')).toMatchObject({ key: 'linkerd.io/inject', prefix: 'linkerd.io', section: 'Annotations' });
    expect(byName.get('DefaultExportedServiceSelector')).toMatchObject({ key: 'mirror.linkerd.io/exported', prefix: 'mirror.linkerd.io' });
  });

  test('the deprecated native-sidecar forms name their replacement; values and paths are not keys', () => {
    const deprecated = LABELS_GO_KEYS.filter((k) => k.deprecated).map((k) => [k.key, k.replacedBy]);
    expect(deprecated).toEqual([
      ['config.alpha.linkerd.io/proxy-enable-native-sidecar', 'ProxyEnableNativeSidecarAnnotation'],
      ['config.beta.linkerd.io/proxy-enable-native-sidecar', 'ProxyEnableNativeSidecarAnnotation'],
    ]);
    const values = Object.values(LABELS_GO) as string[];
    expect(values).not.toContain('enabled');
    expect(values.some((v) => v.startsWith('/'))).toBe(false);
  });
});

describe('which labels.go keys Linkerd 2.20 reads (core/proxy-annotations.ts)', () => {
  test('every proxy-config key of labels.go is classified as read; none is left unread at 2.20', () => {
    expect(table.unreadProxyConfigKeys()).toEqual([]);
    const keys = table.READ_KEYS.map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
  test('every labels.go key is read, written by the injector, read elsewhere or a value; the rest nothing reads', () => {
    expect([...table.UNREAD_KEYS]).toEqual(['mirror.linkerd.io/probe-failure-threshold', 'mirror.linkerd.io/probe-timeout']);
  });
  test('keys are classified: read (with sites), removed, unknown', () => {
    expect(table.proxyKeyStatus('config.linkerd.io/proxy-metrics-hostname-labels')).toMatchObject({ kind: 'read' });
    expect(table.proxyKeyStatus('config.linkerd.io/enable-gateway')).toMatchObject({ kind: 'read', entry: { sites: [table.KeySite.POD] } });
    expect(table.proxyKeyStatus('config.beta.linkerd.io/proxy-enable-native-sidecar'))
      .toMatchObject({ kind: 'read', entry: { replacedBy: 'config.linkerd.io/proxy-enable-native-sidecar' } });
    expect(table.proxyKeyStatus('config.linkerd.io/init-image')).toMatchObject({ kind: 'removed' });
    expect(table.proxyKeyStatus('config.linkerd.io/proxy-enable-gateway')).toEqual({ kind: 'unknown' });
    expect(table.isProxyConfigKey('config.alpha.linkerd.io/x')).toBe(true);
    expect(table.isProxyConfigKey('linkerd.io/inject')).toBe(true);
    expect(table.isProxyConfigKey('linkerd.io/created-by')).toBe(false);
    expect(table.isProxyConfigKey('configuration.example.com/x')).toBe(false);
  });
});
