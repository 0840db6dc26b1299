#!/usr/bin/env bash
# Every jsii language, generated from the compiled assembly (.jsii; run after `npm test` or `npx jsii`):
#  1. jsii-rosetta translates the README's and the doc comments' TypeScript examples (tablet: dist/rosetta.tabl.json),
#     and fails when one does not compile or translate (--strict);
#  2. jsii-pacmak generates the Python, Java, C# and Go code (--code-only: there is no dotnet or go toolchain here, and
#     building the Python wheel or the Maven jar needs PyPI / Maven Central, which CI cannot reach);
#  3. each language's code is checked: its main files exist, and the Python compiles (python3 is available);
#  4. jsii-docgen writes the API reference in each language (dist/api/<language>/API.md), examples translated;
#  5. jsii-rosetta translates the examples' construct code to Python (dist/examples/python/), best effort: rosetta
#     does not translate arrow functions, `??` or object spreads, and reports where it meets them; no file may have
#     more such places than it has today.
# Output under dist/ (the package output, not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
out=dist/languages
api=dist/api
rm -rf "$out" "$api" dist/rosetta.tabl.json
mkdir -p dist
start=$SECONDS

# Every TypeScript snippet of the README (and of the doc comments) must compile and translate: --strict fails on the
# first one that does not, and the diagnostics say which (fragments name a fixture in rosetta/). The .jsii carries the
# README as it was at compile time: compile again after editing it.
if ! rosetta_log="$(npx --no-install jsii-rosetta extract --strict --output dist/rosetta.tabl.json .jsii 2>&1)"; then
  grep -v '^!!' <<<"$rosetta_log" >&2
  echo "error: jsii-rosetta cannot translate every README snippet (see above; README.md, 'Other languages')" >&2
  exit 1
fi
npx --no-install jsii-pacmak --code-only --outdir "$out" --rosetta-tablet dist/rosetta.tabl.json \
  --target python --target java --target dotnet --target go >/dev/null

expect_file() {
  if [ ! -s "$out/$1" ]; then echo "error: jsii-pacmak did not generate $1" >&2; exit 1; fi
}
for type in Server MeshTlsAuthentication AuthorizationPolicy HttpRoute LinkerdControlPlane MeshChecks; do
  expect_file "java/src/main/java/io/github/maintainers/cdk8s/linkerd/$type.java"
  expect_file "dotnet/Maintainers.Cdk8s.Linkerd/Maintainers/Cdk8s/Linkerd/$type.cs"
  expect_file "go/cdk8slinkerd/$type.go"
  grep -q "^class $type(" "$out/python/src/cdk8s_linkerd/__init__.py" || { echo "error: no Python class $type" >&2; exit 1; }
done
expect_file python/src/cdk8s_linkerd/linkerd_policy/__init__.py
expect_file python/src/cdk8s_linkerd/gateway_api/__init__.py
expect_file java/pom.xml
expect_file go/cdk8slinkerd/go.mod
# Each package's README (Java: package-info.java, C#: NamespaceDoc.cs) carries the README's snippets in its language.
expect_translated() {
  grep -qF "$2" "$out/$1" || { echo "error: $1 lacks the translated quick start ($2)" >&2; exit 1; }
}
expect_translated python/README.md 'def build_quick_start(app):'
expect_translated java/src/main/java/io/github/maintainers/cdk8s/linkerd/package-info.java 'public Chart buildQuickStart(App app)'
expect_translated dotnet/Maintainers.Cdk8s.Linkerd/Maintainers/Cdk8s/Linkerd/NamespaceDoc.cs 'public Chart BuildQuickStart(App app)'
expect_translated go/cdk8slinkerd/README.md 'func BuildQuickStart(app App) Chart'
# The Python code must at least compile (reserved words such as `from` or `except` are renamed by pacmak).
python3 -m compileall -q "$out/python/src" >/dev/null

for language in python java csharp go; do
  npx --no-install jsii-docgen -l "$language" -o "$api/$language/API.md" --split-by-submodule >/dev/null
  [ -s "$api/$language/API.md" ] || { echo "error: no $language API reference" >&2; exit 1; }
done
# The references show the doc comments' examples in their language (here HttpRoute's, from the rosetta tablet).
grep -qF 'HttpRoute(chart, "OrdersReads",' "$api/python/API.md" &&
  grep -qF 'HttpRoute.Builder.create(chart, "OrdersReads")' "$api/java/API.md" &&
  grep -qF 'new HttpRoute(chart, "OrdersReads", new HttpRouteProps {' "$api/csharp/API.md" &&
  grep -qF 'cdk8slinkerd.NewHttpRoute(chart, jsii.String("OrdersReads"), &HttpRouteProps{' "$api/go/API.md" ||
  { echo "error: an API reference lacks the translated HttpRoute example" >&2; exit 1; }
mkdir -p dist/examples/python
# The examples are idiomatic TypeScript (a chart's `{ ...props }`, `map` with arrow functions, `??`, runOrExit's
# callback), so rosetta translates them best effort; each file may not get worse than the rosetta diagnostics it has
# today (multicluster translates completely), and a new untranslatable construct must be a decision, not an accident.
declare -A budget=([quick-start/main]=1 [mesh-lab/mesh-lab]=5 [grpc-canary/grpc-canary]=6 [control-plane/control-plane]=4 [multicluster/multicluster]=0)
for example in quick-start/main mesh-lab/mesh-lab grpc-canary/grpc-canary control-plane/control-plane multicluster/multicluster; do
  target="dist/examples/python/${example//\//-}.py"
  diagnostics="$(npx --no-install jsii-rosetta snippet --language python "examples/$example.ts" 2>&1 >"$target" | grep -c 'error TS0' || true)"
  [ -s "$target" ] || { echo "error: rosetta wrote no Python for examples/$example.ts" >&2; exit 1; }
  # The examples import the sources ('../../src', '../../src/checks/mesh-checks'), which rosetta renders as relative
  # Python imports; a user imports the package, which exports every one of these names.
  sed -i -E 's/^from \.+src(\.[a-z0-9_.]+)? import /from cdk8s_linkerd import /' "$target"
  echo "examples/$example.ts -> $target ($diagnostics constructs rosetta could not translate)"
  if [ "$diagnostics" -gt "${budget[$example]}" ]; then
    echo "error: examples/$example.ts has $diagnostics rosetta diagnostics, more than its ${budget[$example]} (jsii-rosetta snippet --language python examples/$example.ts)" >&2
    exit 1
  fi
done
echo "jsii languages: Python, Java, C#, Go generated in $out, API references in $api ($((SECONDS - start))s)"
