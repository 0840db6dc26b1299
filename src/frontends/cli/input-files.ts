/**
 * The CLI's inputs after the config file's `exclude` and the files cdk8s-cli writes beside the manifests: each skipped
 * file is named in a note (stderr), so a skipped file is never a silent one. `cdk8s synth` writes
 * construct-metadata.json into the output folder when cdk8s.yaml has `validations:`, and a validation report
 * where --validation-reports-output-file says: neither is a manifest, so `analyze dist/` reads the folder as it is.
 */
import * as path from 'path';
import { InputFile, collectFiles, parseManifests, readInput } from './load-manifests';
import { Manifest } from '../../analysis/model/manifest';
import { CONFIG_FILE_NAME, CheckConfig, excludedByConfig } from '../../config';
import { InputError } from '../../core/input-error';
import { isRecord } from '../../util/json';

export interface LoadedInputs {
  readonly manifests: Manifest[];
  /** One line per skipped file, for stderr. */
  readonly notes: string[];
}

/** cdk8s App.writeConstructMetadata's file name (cdk8s lib/app.js). */
const CONSTRUCT_METADATA = 'construct-metadata.json';

/** What cdk8s or cdk8s-cli wrote, by its shape: `{version, resources}` or `{reports: [...]}`, without a kind. */
function cdk8sFile(file: InputFile, text: string): string | undefined {
  if (!/\.json$/i.test(file.absolute)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || 'kind' in value || 'apiVersion' in value) return undefined;
  if (path.basename(file.absolute) === CONSTRUCT_METADATA || (isRecord(value.resources) && typeof value.version === 'string')) {
    return 'the construct metadata cdk8s writes for validation plugins';
  }
  if (Array.isArray(value.reports)) return 'a cdk8s-cli validation report';
  return undefined;
}

export function loadInputs(paths: readonly string[], cwd: string, config: CheckConfig): LoadedInputs {
  const notes: string[] = [];
  const manifests: Manifest[] = [];
  let read = 0;
  for (const file of collectFiles(paths, cwd)) {
    // A folder at the repository root holds the config file itself: settings, not a manifest.
    if (path.basename(file.absolute) === CONFIG_FILE_NAME) {
      notes.push(`note: skipped ${file.display} (the cdk8s-linkerd config file, not a manifest)`);
      continue;
    }
    if (excludedByConfig(file.absolute, config)) {
      notes.push(`note: skipped ${file.display} (exclude in ${path.relative(cwd, config.file!) || config.file})`);
      continue;
    }
    const text = readInput(file);
    const what = cdk8sFile(file, text);
    if (what) {
      notes.push(`note: skipped ${file.display} (${what}, not a manifest)`);
      continue;
    }
    read++;
    manifests.push(...parseManifests(text, file.display));
  }
  if (read === 0) {
    throw new InputError(`${paths.join(' ')}: every file was skipped (${notes.length} skipped), nothing was analysed`,
      'Give a path that holds manifests, or narrow the exclude list of the config file.');
  }
  return { manifests, notes };
}
