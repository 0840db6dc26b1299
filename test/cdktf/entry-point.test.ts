/**
 * cdk8s users must never need cdktf (archived upstream): the main entry point may not reach it. This file imports
 * nothing from cdktf itself, so the module registry shows exactly what each entry point loads.
 */
function modulesLoadedBy(entry: string): string[] {
  let loaded: string[] = [];
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the point is to load the entry point in isolation
    require(entry);
    loaded = Object.keys(require.cache);
  });
  return loaded.filter((p) => /node_modules[\\/](cdktf|@cdktf)[\\/]/.test(p));
}

test.each(['../../src', '../../src/control-plane/install', '../../src/control-plane/delivery/delivery', '../../src/control-plane/delivery/terraform', '../../src/analysis/rules'])(
  '%s loads neither cdktf nor @cdktf/provider-helm', (entry) => {
    expect(modulesLoadedBy(entry)).toEqual([]);
  });

test('the cdktf entry point does load them (so the check above can see them)', () => {
  const loaded = modulesLoadedBy('../../src/cdktf');
  expect(loaded.some((p) => /[\\/]cdktf[\\/]/.test(p))).toBe(true);
  expect(loaded.some((p) => /@cdktf[\\/]provider-helm/.test(p))).toBe(true);
});
