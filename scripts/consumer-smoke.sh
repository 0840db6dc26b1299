#!/usr/bin/env bash
# Installs the packaged library (dist/js/*.jsii.tgz) into an empty project, as a user would, with only the required
# peers (no cdktf), then synthesizes a small app through it and runs the CLI. Catches what in-repo tests cannot:
# a runtime dependency missing from bundledDependencies, a broken bin, an optional peer loaded eagerly.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tgz="$(ls "$repo"/dist/js/cdk8s-linkerd@*.jsii.tgz | head -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error "$tgz" cdk8s@2.69.74 constructs@10.4.2 cdk8s-plus-28@2.5.6 >/dev/null
if [ -d node_modules/cdktf ]; then echo "error: cdktf was installed for a cdk8s-only user" >&2; exit 1; fi
cat > app.js <<'JS'
const { ApiObject, App, Chart } = require('cdk8s');
const kplus = require('cdk8s-plus-28');
const l = require('cdk8s-linkerd');
const app = new App({ outdir: 'out' });
const chart = new Chart(app, 'demo', { namespace: 'demo' });
new l.MeshedNamespace(chart, 'ns', { name: 'demo' });
const svc = new kplus.Service(chart, 'svc', { metadata: { name: 'orders' }, ports: [{ port: 8080 }] });
new l.TrafficSplit(chart, 'split', {
  name: 'orders-split', service: l.ServiceReference.fromService(svc), port: 8080,
  backends: [{ service: l.ServiceReference.fromService(svc), percent: 100 }],
});
// A route written by hand beside the constructs, to a backend nobody writes: the checks see every object of the app.
// (A ServiceReference.fromName backend would only warn: it says the Service exists outside the app.)
new ApiObject(chart, 'raw', {
  apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'orders-raw' },
  spec: { parentRefs: [{ group: 'core', kind: 'Service', name: 'orders', port: 8080 }], rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/raw' } }], backendRefs: [{ name: 'missing', port: 8080 }] }] },
});
try { app.synth(); } catch (e) { if (/LKD-ROUTE-007 at demo\/raw/.test(e.message)) { console.log('checks ran: LKD-ROUTE-007'); process.exit(0); } throw e; }
throw new Error('synth should have failed with LKD-ROUTE-007');
JS
node app.js
printf 'apiVersion: v1\nkind: Service\nmetadata: {name: x, namespace: y}\nspec: {ports: [{port: 80}]}\n' > ok.yaml
npx --no-install cdk8s-linkerd analyze ok.yaml
# The docs README links to ship with the package; runOrExit and the import command are there for users.
for doc in docs/rules.md docs/error-messages.md CHANGELOG.md; do
  if [ ! -f "node_modules/cdk8s-linkerd/$doc" ]; then echo "error: the package does not ship $doc" >&2; exit 1; fi
done
node -e "if (typeof require('cdk8s-linkerd').runOrExit !== 'function') throw new Error('runOrExit is not exported')"
npx --no-install cdk8s-linkerd import ok.yaml --out imported.ts >/dev/null
grep -q "new ApiObject(scope, 'Service-y-x'" imported.ts
echo "consumer smoke test passed"
