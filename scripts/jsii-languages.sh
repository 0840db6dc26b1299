#!/usr/bin/env bash
# Every jsii language, generated from the compiled assembly (.jsii; run after `npm test` or `npx jsii`):
#  1. jsii-rosetta translates the README's and the doc comments' TypeScript examples (tablet: dist/rosetta.tabl.json),
#     and fails when one does not compile or translate (--strict);
#  2. jsii-pacmak generates the Python, Java, C# and Go code (--code-only: there is no dotnet or go toolchain here, and
#     building the Python wheel or the Maven jar needs PyPI / Maven Central, which CI cannot reach);
#  3. each language's code is checked: its main files exist, and the Python compiles (python3 is available);
#  4. jsii-docgen writes the API reference in each language (dist/api/<language>/API.md), examples translated;
#  5. jsii-rosetta translates the examples to Python (dist/examples/python/): the construct code completely (rosetta
#     reports the arrow functions, `??` and object spreads it cannot translate), the TypeScript-only entries (main.ts:
#     runOrExit's callback) with no more such places than they have.
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
# The examples' construct code avoids what rosetta cannot translate (object spreads, arrow functions, `??`, array
# destructuring): explicit props, loops, small named methods instead, so each construct file translates completely and
# a new untranslatable construct fails here. The entry files (main.ts) are TypeScript only by design: runOrExit takes a
# callback (jsii cannot pass functions), and control-plane's and multicluster's read their output directory from the
# environment with a `??` default; they may keep exactly those.
declare -A budget=(
  [quick-start/quick-start]=0 [mesh-lab/mesh-lab]=0 [grpc-canary/grpc-canary]=0 [control-plane/control-plane]=0
  [multicluster/multicluster]=0
  [quick-start/main]=1 [mesh-lab/main]=1 [grpc-canary/main]=1 [control-plane/main]=2 [multicluster/main]=2
)
for example in quick-start/quick-start mesh-lab/mesh-lab grpc-canary/grpc-canary control-plane/control-plane multicluster/multicluster \
  quick-start/main mesh-lab/main grpc-canary/main control-plane/main multicluster/main; do
  target="dist/examples/python/${example//\//-}.py"
  diagnostics="$(npx --no-install jsii-rosetta snippet --language python "examples/$example.ts" 2>&1 >"$target" | grep -c 'error TS0' || true)"
  [ -s "$target" ] || { echo "error: rosetta wrote no Python for examples/$example.ts" >&2; exit 1; }
  # The examples import the sources ('../../src', '../../src/checks/mesh-checks'), which rosetta renders as relative
  # Python imports; a user imports the package, which exports every one of these names.
  sed -i -E 's/^from \.+src(\.[a-z0-9_.]+)? import /from cdk8s_linkerd import /' "$target"
  echo "examples/$example.ts -> $target ($diagnostics places rosetta could not translate)"
  if [ "$diagnostics" -gt "${budget[$example]}" ]; then
    echo "error: examples/$example.ts has $diagnostics rosetta diagnostics, more than its ${budget[$example]} (jsii-rosetta snippet --language python examples/$example.ts)" >&2
    exit 1
  fi
  # rosetta copies some TypeScript through without a diagnostic (`!==`, `||`, `Object.entries`, `undefined`): in the
  # construct code that would be Python that does not run, so it counts as untranslated too.
  if [ "${budget[$example]}" -eq 0 ] && grep -vE '^\s*#' "$target" | grep -nE '!==|===|\|\||&&|\bObject\.|\bundefined\b' >&2; then
    echo "error: rosetta copied TypeScript into $target (above); rewrite examples/$example.ts without it" >&2
    exit 1
  fi
  if [ "${budget[$example]}" -eq 0 ] && ! python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' "$target"; then
    echo "error: the Python rosetta wrote for examples/$example.ts does not parse ($target)" >&2
    exit 1
  fi
done
echo "jsii languages: Python, Java, C#, Go generated in $out, API references in $api ($((SECONDS - start))s)"
