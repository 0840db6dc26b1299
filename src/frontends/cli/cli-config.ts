/**
 * What every engine command takes from the config file and the flags that go with it: `--config FILE` (else the
 * nearest .cdk8s-linkerd.yaml), `--docs-url URL` and the documentation link of each rule. Flags win over the file.
 */
import { OptionSpec, ParsedArgs, optionValue } from './args';
import { UsageError } from './errors';
import { packageInfo } from './package-info';
import { HelpUri, helpUriFor } from '../../analysis/report';
import { DOCUMENTED_RULES } from '../../analysis/rule-docs';
import { CheckConfig, resolveConfig } from '../../config';

export const CONFIG_SPECS: Record<string, OptionSpec> = {
  'config': { value: true },
  'docs-url': { value: true },
};

export function cliConfig(args: ParsedArgs, cwd: string): CheckConfig {
  return resolveConfig(cwd, optionValue(args, 'config'));
}

/** The rule documentation links: --docs-url, else the config's docsUrl, else package.json's homepage. */
export function cliHelpUri(args: ParsedArgs, config: CheckConfig): HelpUri {
  const given = optionValue(args, 'docs-url');
  if (given !== undefined && !/^https?:\/\/\S+$/.test(given)) throw new UsageError(`--docs-url must be an http(s) URL (got ${JSON.stringify(given)})`);
  const base = given ?? config.docsUrl ?? packageInfo().homepage;
  return helpUriFor(base, new Set(DOCUMENTED_RULES.map((r) => r.id)));
}
