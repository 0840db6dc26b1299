/**
 * What an app can know, before it writes anything, about the cdk8s-linkerd validation plugin that cdk8s-cli will run
 * after it: cdk8s-cli reads `cdk8s.yaml` from the directory it runs in (which the app inherits) and sets
 * CDK8S_RECORD_CONSTRUCT_METADATA=true for the app when validations are configured.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';

/** The class name cdk8s.yaml names for this plugin. */
export const PLUGIN_CLASS = 'LinkerdValidation';

/**
 * The `properties` of every cdk8s-linkerd entry under `validations` in ./cdk8s.yaml when cdk8s-cli runs this app with
 * validations; an empty list otherwise (not under cdk8s-cli, remote `validations: <url>`, unreadable config).
 */
export function linkerdPluginEntries(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): unknown[] {
  if (env.CDK8S_RECORD_CONSTRUCT_METADATA !== 'true') return [];
  let config: any;
  try {
    config = yaml.load(fs.readFileSync(path.join(cwd, 'cdk8s.yaml'), 'utf8'));
  } catch {
    return [];
  }
  const validations = config?.validations;
  if (!Array.isArray(validations)) return [];
  return validations.filter((v: any) => v?.class === PLUGIN_CLASS).map((v: any) => v.properties ?? {});
}
