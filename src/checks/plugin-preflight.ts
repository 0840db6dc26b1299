/**
 * What would make the cdk8s-linkerd validation plugin that cdk8s-cli runs after a synth fail without analysing
 * anything (a bad property, a missing inventory file): known before the synth writes a manifest, so it fails then.
 */
import { linkerdPluginEntries } from './plugin-config';
import { SettingError, missingPaths, readProperties } from './plugin-settings';

/** The problems of one plugin entry's properties, as validation failures. */
function pluginProblems(properties: unknown): string[] {
  try {
    return missingPaths(readProperties(properties));
  } catch (e) {
    if (e instanceof SettingError) return [`${e.ruleId}: ${e.message}. Fix: ${e.fix}`];
    throw e;
  }
}

/** What would make the cdk8s-linkerd validation plugins of cdk8s.yaml fail without analysing anything. */
export function pluginFailures(entries: unknown[] = linkerdPluginEntries()): string[] {
  return entries.flatMap(pluginProblems);
}
