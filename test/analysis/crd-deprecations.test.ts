/**
 * Which API versions the 2.20 CRDs mark deprecated is read from the CRDs (../shared/reference, the linkerd-crds chart of
 * version-2.20), never assumed: LKD-POL-015's table must say exactly what their `deprecated: true` flags say.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { analyze } from '../../src/analysis/engine';
import { CRD_DEPRECATED_VERSIONS } from '../../src/analysis/rules/policy/legacy-kinds';
import { asManifests } from '../support/mesh-fixture';
import { LINKERD_CRDS, describeWithShared } from '../support/shared';

function deprecatedVersions(crdName: string): string[] {
  const crd: any = yaml.load(fs.readFileSync(path.join(LINKERD_CRDS, `${crdName}.yaml`), 'utf8'));
  return crd.spec.versions.filter((v: any) => v.deprecated === true).map((v: any) => v.name).sort();
}

describeWithShared('API versions the 2.20 CRDs mark deprecated', () => {
  test.each(Object.keys(CRD_DEPRECATED_VERSIONS).map((n) => [n]))('%s: the table matches the CRD\'s flags', (name) => {
    expect([...CRD_DEPRECATED_VERSIONS[name]].sort()).toEqual(deprecatedVersions(name));
  });

  test('Server v1beta2 is older but not deprecated; v1beta1 is deprecated; both are info', () => {
    const server = (version: string, name: string) => ({
      apiVersion: `policy.linkerd.io/${version}`,
      kind: 'Server',
      metadata: { name, namespace: 'ns' },
      spec: { podSelector: { matchLabels: { app: 'a' } }, port: 8080 },
    });
    const found = analyze(asManifests([server('v1beta1', 'old'), server('v1beta2', 'older')])).findings.filter((f) => f.ruleId === 'LKD-POL-015');
    expect(found.map((f) => [f.resource.name, f.severity, f.message])).toEqual([
      ['old', 'info', expect.stringMatching(/^Server uses the deprecated \(by the 2\.20 CRD\) policy\.linkerd\.io\/v1beta1;/)],
      ['older', 'info', expect.stringMatching(/^Server uses the older policy\.linkerd\.io\/v1beta2;/)],
    ]);
  });
});
