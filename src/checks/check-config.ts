/**
 * The repository config file as MeshChecks reads it: `configure({ configFile })`, else the nearest
 * .cdk8s-linkerd.yaml from the app's working directory up to the repository root. Its context options sit between
 * the App's control plane (below) and configure() (above); its rule levels and failOn apply to the App's findings.
 */
import { Finding, Severity, SuppressedFinding } from '../analysis/finding';
import { CheckConfig, ConfigError, applyRuleLevels, resolveConfig } from '../config';

export class MeshChecksConfig {
  private cached?: { key: string; config: CheckConfig };

  /** The config for `configFile` (relative to the working directory), else the one found from it; read once per App. */
  public read(configFile?: string, cwd: string = process.cwd()): CheckConfig {
    const key = `${cwd}\u0000${configFile ?? ''}`;
    if (this.cached?.key !== key) {
      try {
        this.cached = { key, config: resolveConfig(cwd, configFile) };
      } catch (e) {
        // cdk8s prints what a validation throws: the coded line, as every front-end prints a bad setting.
        if (e instanceof ConfigError) throw new Error(`MeshChecks: ${e.coded}`);
        throw e;
      }
    }
    return this.cached.config;
  }

  public levelled<T extends { readonly findings: Finding[]; readonly suppressed: SuppressedFinding[] }>(result: T, configFile?: string): T {
    return applyRuleLevels(result, this.read(configFile).rules);
  }

  /** Whether warnings fail synth: failOnWarnings when given, else the file's failOn. */
  public failsOnWarnings(failOnWarnings: boolean | undefined, configFile?: string): boolean {
    return failOnWarnings ?? this.read(configFile).failOn === Severity.WARNING;
  }
}
