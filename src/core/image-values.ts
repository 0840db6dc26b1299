/**
 * The image keys of the linkerd-control-plane chart. The chart builds each image as `<name>:<version>`, with an empty
 * version meaning "the chart's linkerdVersion", which the pinned chart version already fixes.
 */
import { isPlainObject, valueAt } from './helm-values';
import { imageTagProblem } from './versions';

/** [name key, version key] of every image the chart renders. */
export const CHART_IMAGES: Array<[string, string]> = [
  ['proxy.image.name', 'proxy.image.version'],
  ['controllerImage', 'controllerImageVersion'],
  ['debugContainer.image.name', 'debugContainer.image.version'],
];

/** Version keys that override the tag of the proxy everywhere it is injected. */
export const PROXY_VERSION_KEY = 'proxy.image.version';

export interface ValueProblem {
  readonly path: string;
  readonly problem: string;
}

function nameProblem(path: string, name: unknown): ValueProblem | undefined {
  if (name === undefined || name === '') return undefined;
  if (typeof name !== 'string') return { path, problem: `${path} is not a string` };
  const afterRegistry = name.slice(name.lastIndexOf('/') + 1);
  if (afterRegistry.includes(':') || name.includes('@')) {
    return { path, problem: `${path} "${name}" carries a tag or digest, but the chart appends ":<version>" itself` };
  }
  return undefined;
}

function versionProblem(path: string, version: unknown): ValueProblem | undefined {
  // Unset or empty: the chart uses its own linkerdVersion, which the exact chart version pins.
  if (version === undefined || version === '') return undefined;
  const problem = imageTagProblem(version);
  return problem ? { path, problem: `${path}: ${problem}` } : undefined;
}

/** Image overrides in chart values that are not pinned (a `latest` tag, or a tag hidden in the image name). */
export function imageValueProblems(values: unknown): ValueProblem[] {
  if (!isPlainObject(values)) return [];
  const problems: ValueProblem[] = [];
  for (const [nameKey, versionKey] of CHART_IMAGES) {
    const byName = nameProblem(nameKey, valueAt(values, nameKey));
    const byVersion = versionProblem(versionKey, valueAt(values, versionKey));
    if (byName) problems.push(byName);
    if (byVersion) problems.push(byVersion);
  }
  const linkerdVersion = versionProblem('linkerdVersion', valueAt(values, 'linkerdVersion'));
  if (linkerdVersion) problems.push(linkerdVersion);
  return problems;
}
